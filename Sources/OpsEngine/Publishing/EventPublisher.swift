import OpsEvents

/// Between the state machine and the world: numbers the core's events, folds each into the
/// projection, runs the lints over it and publishes what they find as `warning` events at the same
/// engine time. Both runtimes publish through one; not thread-safe (the virtual runtime calls it on its
/// thread, the live runtime on its delivery queue). Generic over its receiver, the runtime, so it is
/// called directly and unretained: through a closure stored here, the closure's context was
/// retained and released at every event (~460 instructions an operation on the live runtime's
/// delivery thread), and so was a receiver held as an unowned protocol reference.
final class EventPublisher<Receiver: EventReceiver> {
  // `@exclusivity(unchecked)`: one thread at a time uses a publisher (see above), and the dynamic
  // checks of every access to the projection and the lints were ~3% of the live runtime's delivery.
  @exclusivity(unchecked) public private(set) var projection: Projection
  @exclusivity(unchecked) public private(set) var seq = 0
  @exclusivity(unchecked) private var lints: [any Lint]
  /// By `EventType.rawValue`: the lints checked after an event of that type (see `Lint.eventTypes`).
  /// Calling each of nine lints on every event, most of them to return at once, was a fifth of the
  /// live runtime's delivery with the standard lints.
  private let lintsByType: [LintSet]
  private let stateCount = OperationState.allCases.count
  /// By `from.order * stateCount + to.order`: the lints checked after a `state` event (see
  /// `Lint.states`). Most look only at starts and finishes; the other transitions of every
  /// operation called each of them to return at once.
  private let lintsByTransition: [LintSet]
  /// The same tables for lints beyond the 64th, by index (empty unless there are that many).
  private let moreByType: [[Int]]
  private let moreByTransition: [[Int]]
  private let hasMore: Bool
  @exclusivity(unchecked) private var raised = Set<String>()
  /// Receives every event, warnings included, in order, while `delivers` is true. Unretained: it
  /// owns the publisher.
  @exclusivity(unchecked) private var receiver: Unmanaged<Receiver>?
  /// Sets the receiver, which must own this publisher (it is not retained).
  func deliver(to r: Receiver) { receiver = .passUnretained(r) }
  /// False while nobody listens (the live runtime without subscribers): the receiver is then not
  /// called for each event only to find no one (a call and its list retained and released).
  @exclusivity(unchecked) var delivers = true
  /// Asked to call `wake(at:token:)` at this time; a later request replaces an earlier one.
  var scheduleWake: (_ time: Double, _ token: Int) -> Void = { _, _ in }
  @exclusivity(unchecked) private var wakeToken = 0
  @exclusivity(unchecked) private var scheduledWake: Double?

  /// Whether events are folded into `projection`: always when there are lints (they read it), and when
  /// the owner exposes the projection (the virtual runtime); the live runtime without lints skips it.
  private let folds: Bool

  /// `keepsHistory`, `keepsMembers`, `keepsDependents`: what the projection keeps (see
  /// `Projection`).
  public init(
    lints: [any Lint] = Lints.standard, folds: Bool = true, keepsHistory: Bool = true,
    keepsMembers: Bool = true, keepsDependents: Bool = true
  ) {
    projection = Projection(
      keepsHistory: keepsHistory, keepsMembers: keepsMembers, keepsDependents: keepsDependents)
    self.lints = lints
    self.folds = folds || !lints.isEmpty
    let types = lints.map(\.eventTypes)
    let byType = EventType.allCases.map { type in
      types.indices.filter { types[$0]?.contains(type) ?? true }
    }
    let stateLints = byType[EventType.state.rawValue]
    let states = lints.map(\.states)
    let byTransition = OperationState.allCases.flatMap { from in
      OperationState.allCases.map { to in
        stateLints.filter { i in states[i].map { $0.contains(from) || $0.contains(to) } ?? true }
      }
    }
    lintsByType = byType.map(LintSet.init)
    lintsByTransition = byTransition.map(LintSet.init)
    hasMore = lints.count > 64
    moreByType = hasMore ? byType.map { $0.filter { $0 >= 64 } } : []
    moreByTransition = hasMore ? byTransition.map { $0.filter { $0 >= 64 } } : []
  }

  /// Publishes one event from the core (its sequence number is replaced by the publisher's).
  /// `rescheduling: false` leaves the next wake-up to `rescheduleWake()` at the end of a batch: a
  /// wake-up cannot run in the middle of one, and asking every lint for its deadline after every event
  /// was ~6% of the live runtime's delivery.
  func publish(_ kind: EventKind, at time: Double, rescheduling: Bool = true) {
    publish(numbered: Event(seq: seq + 1, time: time, kind: kind), rescheduling: rescheduling)
  }

  /// Publishes one event from the core, renumbered by the publisher. Owned: while no warning has been
  /// raised the core's numbers are the publisher's, and the event goes on as it is. (A borrowed one
  /// was copied, every field retained and released, before the fold could read it: the compiler cannot
  /// tell that folding into the publisher's own projection leaves the caller's storage alone.)
  /// `rowHint`: where the projection may find the event's operation (see `EventBuffer`).
  func publish(_ event: consuming Event, rowHint: Int = -1, rescheduling: Bool = true) {
    if event.seq == seq + 1 {
      publish(numbered: event, rowHint: rowHint, rescheduling: rescheduling)
    } else {
      publish(
        numbered: Event(seq: seq + 1, time: event.time, kind: event.kind), rowHint: rowHint,
        rescheduling: rescheduling)
    }
  }

  /// `event.seq` is the publisher's next number.
  private func publish(numbered event: consuming Event, rowHint: Int = -1, rescheduling: Bool) {
    seq += 1
    if folds { projection.apply(event, rowHint: rowHint) }
    if delivers, let r = receiver { r._withUnsafeGuaranteedRef { $0.receive(event) } }
    guard !lints.isEmpty else { return }
    let time = event.time
    // The lints read the projection in place: passing the stored property would copy it (a retain
    // and a release of each of its fields, for every event), and moving it out into a fresh local
    // built and destroyed an empty projection per event.
    var found: [(Int, LintOutput)] = []
    let interested: LintSet
    var more: [Int] = []
    if case .state(_, let from, let to, _) = event.kind {
      let transition = from.order * stateCount + to.order
      interested = lintsByTransition[transition]
      if hasMore { more = moreByTransition[transition] }
    } else {
      interested = lintsByType[event.kind.eventType.rawValue]
      if hasMore { more = moreByType[event.kind.eventType.rawValue] }
    }
    guard !interested.isEmpty || !more.isEmpty else {
      if rescheduling { rescheduleWake() }
      return
    }
    projection.lend(event) { current, event in
      // One output for all of them, replaced only when a lint found something. The set's indices
      // come first, then those beyond the 64th (`more`), both in increasing order.
      var out = LintOutput()
      var next = interested.makeIterator()
      var k = 0
      while let i = next.next() ?? (k < more.count ? more[k] : nil) {
        if i >= 64 { k += 1 }
        lints[i].check(after: event, in: current, &out)
        if !out.findings.isEmpty {
          found.append((i, out))
          out = LintOutput()
        }
      }
    }
    for (i, out) in found { raise(out, by: i, at: time) }
    if rescheduling { rescheduleWake() }
  }

  /// Whether events are folded into `projection` (see `init`).
  var isFolding: Bool { folds }

  /// Forgets operations the live runtime retired (see `Projection.retire`), once every event up to
  /// their retirement has been published. Each comes with its row in the projection (see
  /// `EventBuffer`), so it is found without hashing its name.
  func retire(operations names: [RetiredName]) {
    guard folds else { return }
    for r in names { projection.retire(r.name, rowHint: r.row) }
  }

  /// A wake-up asked for with `token` is due; stale tokens are ignored. True if it was live.
  @discardableResult
  func wake(at time: Double, token: Int) -> Bool {
    guard token == wakeToken, scheduledWake != nil else { return false }
    scheduledWake = nil
    projection.advanceClock(to: time)
    for i in lints.indices {
      var due = false
      projection.lend { current in
        if let d = lints[i].nextDeadline(in: current), d <= time + 1e-9 { due = true }
      }
      guard due else { continue }
      var out = LintOutput()
      lints[i].check(at: time, in: projection, &out)
      raise(out, by: i, at: time)
    }
    rescheduleWake()
    return true
  }

  /// Whether a wake-up with this token is still wanted.
  func isLive(token: Int) -> Bool { token == wakeToken && scheduledWake != nil }

  private func emit(_ kind: EventKind, at time: Double) {
    seq += 1
    let event = Event(seq: seq, time: time, kind: kind)
    if folds { projection.apply(event) }
    if delivers, let r = receiver { r._withUnsafeGuaranteedRef { $0.receive(event) } }
  }

  private func raise(_ out: LintOutput, by i: Int, at time: Double) {
    for (subject, detail) in out.findings {
      let lint = lints[i]
      guard raised.insert(lint.kind + "\u{0}" + subject).inserted else { continue }
      emit(
        .warning(kind: lint.kind, subject: subject, message: detail + " " + lint.teaching), at: time
      )
    }
  }

  func rescheduleWake() {
    var next: Double?
    projection.lend { current in
      for i in lints.indices {
        if let d = lints[i].nextDeadline(in: current), d < (next ?? .infinity) { next = d }
      }
    }
    guard next != scheduledWake else { return }
    wakeToken += 1
    scheduledWake = next
    if let next { scheduleWake(next, wakeToken) }
  }
}

/// An operation the lints' projection is to forget: its name, and its row there as the engine
/// counts it (`OperationRecord.foldRow`), checked against the name before it is used.
struct RetiredName {
  let name: String
  let row: Int

  init(_ op: OperationRecord) {
    name = op.name
    row = op.foldRow
  }
}
