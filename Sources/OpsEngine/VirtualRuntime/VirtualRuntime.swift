import HeapModule
import OpsEvents

/// The deterministic runtime: a discrete-event simulation on a virtual clock. Time moves only when the
/// driver says so (`step`, `advance(by:)`, `run`). The same input always gives the same event stream.
public final class VirtualRuntime {
  enum AgendaItem {
    case enqueue(op: Int, queue: Int)
    case command(Command, CommandSource)
    case workDone(op: Int)
    case cancelCheck(op: Int)
    case produce(op: Int, name: String)
    case conditionDone(op: Int, index: Int)
    case timer(EngineTimer)
    /// A lint asked to look again at this time (see `EventPublisher`).
    case lintWake(token: Int)
  }

  struct Entry: Comparable {
    let time: Int64
    let order: Int
    let item: AgendaItem
    static func < (a: Entry, b: Entry) -> Bool { (a.time, a.order) < (b.time, b.order) }
    static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.order == b.order }
  }

  private var core: EngineCore!
  private let publisher: EventPublisher<VirtualRuntime>
  private var agenda = Heap<Entry>()
  private var scheduled = 0
  private var clock: Int64 = 0
  private var startedAt: [Int: Int64] = [:]
  private var subscribers: [(Event) -> Void] = []
  /// Every event so far, in order (kept when `recording` is true).
  public private(set) var events: [Event] = []
  public let recording: Bool

  /// `lints`: what the engine side checks and publishes as `warning` events (none: `[]`).
  /// `fullProjection: false`: `projection` keeps only what the lints read (no histories of visits,
  /// member sets or dependents), for a run whose state only its events tell (a trace); folding the
  /// rest was a seventh of a large trace's engine thread.
  public init(
    recording: Bool = true, lints: [any Lint] = Lints.standard, fullProjection: Bool = true
  ) {
    self.recording = recording
    publisher = EventPublisher(
      lints: lints, keepsHistory: fullProjection, keepsMembers: fullProjection,
      keepsDependents: fullProjection)
    core = EngineCore(host: self)
    publisher.deliver(to: self)
    publisher.scheduleWake = { [unowned self] time, token in
      // Past the end of the clock (see `maxSeconds`): never. Clamping it to the end instead would
      // wake the lint at once, again and again.
      guard !(time > Self.maxSeconds) else { return }
      // After everything else due at the same instant: a lint looks at the settled moment.
      scheduled += 1
      agenda.insert(
        Entry(
          time: max(Self.micros(time), clock), order: scheduled + Self.lateOrder,
          item: .lintWake(token: token)))
    }
  }

  /// The engine's state folded from its own events (what its lints look at).
  public var projection: Projection { publisher.projection }

  /// Receives every event, in order, synchronously as it happens. A recording runtime first replays the
  /// events published before the subscription (building a scenario publishes some), so nothing is missed.
  public func subscribe(replay: Bool = true, _ handler: @escaping (Event) -> Void) {
    if replay { events.forEach(handler) }
    subscribers.append(handler)
  }

  /// The virtual clock, in seconds.
  public var now: Double { Double(clock) / 1_000_000 }
  /// The number of events published so far (warnings included).
  public var eventCount: Int { publisher.seq }
  /// Nothing more will ever happen: nothing is scheduled but lint wake-ups that are no longer wanted.
  public var isIdle: Bool {
    dropStaleWakes()
    return agenda.isEmpty
  }

  /// When the next scheduled happening is due, in seconds; nil when idle. Lets a driver stop the clock
  /// exactly between two happenings (the board's teaching moments).
  public var nextEventTime: Double? {
    isIdle ? nil : agenda.min.map { Double($0.time) / 1_000_000 }
  }

  /// Events were published since the lints were last asked for their next wake-up.
  private var wakeUnsettled = false

  /// Asks for the lints' next wake-up if events came since; then a lint wake-up that was replaced by a
  /// later request is dropped without moving the clock.
  private func dropStaleWakes() {
    if wakeUnsettled {
      wakeUnsettled = false
      publisher.rescheduleWake()
    }
    while let top = agenda.min, case .lintWake(let token) = top.item,
      !publisher.isLive(token: token)
    {
      agenda.removeMin()
    }
  }

  /// Seconds as clock microseconds, saturating: an infinite or huge span means "never" (the engine's
  /// longest span), and NaN or a negative one means "now", so no input can trap the conversion.
  /// Added to the order of lint wake-ups so they sort after every other item of their instant.
  static let lateOrder = 1 << 50

  static func micros(_ seconds: Double) -> Int64 {
    guard seconds > 0 else { return 0 }
    return Int64((min(seconds, EngineCore.maxSeconds) * 1_000_000).rounded())
  }

  /// The longest span, in seconds, that a time given to the engine can mean, and the end of the
  /// virtual clock: longer times are clamped to it, and callers that take times from users can
  /// refuse them with this bound.
  public static let maxSeconds = EngineCore.maxSeconds

  /// The end of the virtual clock, in microseconds: it never moves past `maxSeconds`.
  static let endOfTime = micros(maxSeconds)

  /// `clock` plus `seconds`, at most the end of time (so no sum can overflow).
  private func later(by seconds: Double) -> Int64 {
    min(clock + Self.micros(seconds), Self.endOfTime)
  }

  private func push(_ item: AgendaItem, at time: Int64) {
    scheduled += 1
    agenda.insert(
      Entry(time: min(max(time, clock), Self.endOfTime), order: scheduled, item: item))
  }

  // MARK: - Building

  public func addQueue(_ spec: QueueSpec) throws { try core.addQueue(spec) }

  /// Declares operations (in `initialized`); dependencies may name any of them, in any order.
  public func addOperations(_ specs: [OperationSpec]) throws {
    let created = try specs.map { try core.createOperation($0) }
    for op in created { try core.resolveDeclaredDependencies(op) }
  }

  public func addOperation(_ spec: OperationSpec) throws { try addOperations([spec]) }

  /// Adds a declared operation to a queue now, or at a later virtual time.
  public func enqueue(_ operation: String, on queue: String, at time: Double? = nil) throws {
    guard let op = core.operation(named: operation) else {
      throw EngineError.unknownOperation(operation)
    }
    guard let q = core.queue(named: queue) else { throw EngineError.unknownQueue(queue) }
    if let t = time, Self.micros(t) > clock {
      push(.enqueue(op: op.id, queue: q.id), at: Self.micros(t))
    } else {
      try core.enqueue(op, on: q)
    }
  }

  /// Adds a dependency after declaration (reported as `dependencyAdded` if the operation is on a queue).
  public func addDependency(_ operation: String, on dependency: String) throws {
    try core.addDependency(named: operation, on: dependency)
  }

  // MARK: - Commands

  /// Applies a command now.
  @discardableResult
  public func perform(_ command: Command, source: CommandSource = .api) -> CommandOutcome {
    core.perform(command, source: source)
  }

  /// Schedules a command (a scenario action) at a virtual time.
  public func schedule(_ command: Command, at time: Double, source: CommandSource = .action) {
    push(.command(command, source), at: Self.micros(time))
  }

  // MARK: - Driving the clock

  /// Handles the next scheduled happening (which may publish several events). False when idle.
  @discardableResult
  public func step() -> Bool {
    dropStaleWakes()
    guard let entry = agenda.popMin() else { return false }
    if case .lintWake(let token) = entry.item {
      // A lint looking again moves the clock only if it finds something: a run that is over keeps
      // the time of its last event.
      let before = publisher.seq
      let time = Double(max(clock, entry.time)) / 1_000_000
      publisher.wake(at: time, token: token)
      if publisher.seq != before { clock = max(clock, entry.time) }
      return true
    }
    clock = max(clock, entry.time)
    handle(entry.item)
    return true
  }

  /// Moves the clock forward by `seconds`, handling everything due on the way.
  public func advance(by seconds: Double) {
    let target = later(by: seconds)
    while !isIdle, let next = agenda.min, next.time <= target { step() }
    clock = max(clock, target)
  }

  /// Runs until nothing more is scheduled (or until `limit` seconds). A deadlock simply stops.
  public func run(until limit: Double? = nil) {
    let cap = limit.map(Self.micros)
    while !isIdle, let next = agenda.min {
      if let c = cap, next.time > c { break }
      step()
    }
    if let c = cap, c > clock, !isIdle { clock = c }
  }

  private func handle(_ item: AgendaItem) {
    switch item {
    case .enqueue(let op, let q):
      core.enqueueChecked(core.ops[op], on: core.queues[q])
    case .command(let c, let source):
      _ = core.perform(c, source: source)
    case .workDone(let id):
      let op = core.ops[id]
      core.workFinished(op, .returned(errors: op.spec.work.fails.map { [$0] } ?? []))
    case .cancelCheck(let id):
      core.workFinished(core.ops[id], .noticedCancel(at: now))
    case .produce(let id, let name):
      core.produce(core.ops[id], name)
    case .conditionDone(let id, let i):
      let op = core.ops[id]
      if case .scripted(let result, let error) = op.spec.conditions[i].check {
        core.conditionEvaluated(op, index: i, result: result, error: error)
      } else {
        core.conditionEvaluated(op, index: i, result: .satisfied, error: nil)
      }
    case .timer(let t):
      core.fire(t)
    case .lintWake:
      break  // Handled in `step`, before the clock moves.
    }
  }

  // MARK: - Queries

  public func state(of operation: String) -> OperationState? {
    core.operation(named: operation)?.state
  }
  public func isCancelled(_ operation: String) -> Bool {
    core.operation(named: operation)?.cancelled ?? false
  }
  public func errors(of operation: String) -> [String] {
    core.operation(named: operation)?.errors ?? []
  }
  public func flags(of operation: String) -> OperationFlags? {
    core.operation(named: operation).map {
      OperationFlags(state: $0.state, cancelled: $0.cancelled)
    }
  }
  /// Foundation's `operationCount`: operations in the queue that have not finished.
  public func operationCount(of queue: String) -> Int {
    core.queue(named: queue)?.members.count ?? 0
  }
  public func executingCount(of queue: String) -> Int { core.queue(named: queue)?.executing ?? 0 }
}

extension VirtualRuntime: EngineHost {
  func record(_ event: consuming Event) {
    // The next lint wake-up is asked for once, when the agenda is next consulted (`settleWakes`), not
    // after every event: nothing can wake in between, and asking each lint after every event was a
    // few percent of a long run.
    publisher.publish(event, rescheduling: false)
    wakeUnsettled = true
  }

  func execute(_ op: OperationRecord) {
    let w = op.spec.work
    startedAt[op.id] = clock
    for p in w.produces {
      push(.produce(op: op.id, name: p.operation), at: later(by: p.at))
    }
    guard op.spec.kind != .group, w.finishes else { return }
    push(.workDone(op: op.id), at: later(by: w.effectiveDuration))
  }

  func evaluate(_ op: OperationRecord, condition index: Int) {
    push(
      .conditionDone(op: op.id, index: index),
      at: later(by: op.spec.conditions[index].evaluate))
  }

  /// Nothing runs in the virtual runtime: the work's end, when due, finds the operation finished.
  func abandonExecuting(_ op: OperationRecord) {}

  func cancelExecuting(_ op: OperationRecord) {
    // Cooperative work notices the flag at its next check, counted from when it started.
    let start = startedAt[op.id] ?? clock
    let every = max(Self.micros(op.spec.work.checkEvery), 1)
    // No overflow: the clock stops at the end of time, and every span is at most that long.
    let check = start + ((clock - start) / every + 1) * every
    if op.spec.work.finishes && check >= start + Self.micros(op.spec.work.effectiveDuration) {
      return
    }
    push(.cancelCheck(op: op.id), at: check)
  }

  func schedule(after seconds: Double, _ timer: EngineTimer) {
    push(.timer(timer), at: later(by: seconds))
  }
}

extension VirtualRuntime: EventReceiver {
  /// One published event: recorded, then to each subscriber.
  func receive(_ event: borrowing Event) {
    if recording { events.append(copy event) }
    for s in subscribers { s(event) }
  }
}
