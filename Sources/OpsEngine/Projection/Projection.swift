import OpsEvents

/// The engine's state rebuilt from its events: the one fold of the event stream. The board, the trace,
/// the explanations, the lints and the tests all read it; nothing else folds events. A value type, so a
/// copy taken at any point is that moment exactly (checkpoints for time travel), and a pure function of
/// the events, so it can be rebuilt in any process (recordings, traces).
///
/// Each event costs O(1) dictionary work plus O(edges) of the operation it touches.
public struct Projection: Sendable, Equatable {
  public private(set) var queues: [QueueInfo] = []
  /// Every operation in the order it was added, stored in chunks that copies share (`ChunkedArray`).
  public private(set) var operations = ChunkedArray<OperationInfo>()
  /// Reported dependency cycles, each in dependency order.
  public private(set) var cycles: [[String]] = []
  /// Every lint raised, in order.
  public private(set) var warnings: [WarningInfo] = []
  /// Every command (key, scripted action, API call), in order.
  public private(set) var commands: [CommandInfo] = []
  /// Who holds each exclusivity category's lock.
  public private(set) var lockHolders: [String: String] = [:]
  /// The clock: the last event's time, or later when the clock moved without events.
  public private(set) var now: Double = 0
  /// The sequence number of the last event applied (0 before any).
  public private(set) var lastSeq = 0
  /// Changes with every event applied: caches keyed on it are exact.
  public private(set) var version = 0
  /// Changes when operations or dependency edges are added (a graph layout depends only on these).
  public private(set) var structureVersion = 0
  /// Longest names so far, so column widths never need a scan.
  public private(set) var longestOperationName = 0
  public private(set) var longestQueueName = 0
  /// Operations added to a queue that have not finished.
  public private(set) var unfinishedCount = 0
  /// Operations executing in any queue.
  public private(set) var executingCount = 0
  /// Queues suspended now (a lint looks at the queues only while one is).
  public private(set) var suspendedQueueCount = 0
  /// Operations in any queue started while ready and asking again for a lock (`QueueInfo.reclaiming`;
  /// a lint looks at the queues only while there are any).
  public private(set) var reclaimingCount = 0
  /// The operations the last event's start overtook (what the starvation lint looks at).
  public private(set) var lastOvertaken: [String] = []
  /// How many operations set each optional column (the board shows a column only when one does).
  public private(set) var traits = OperationTraits()

  private var queueIndex: [String: Int] = [:]
  /// The queue of the last operation added: most are added to the same queue as the one before, and
  /// comparing a short name costs less than hashing it. Queues are never removed.
  private var lastQueueAdded: (name: String, index: Int)?
  /// By name, every operation added; a retired one's name stays until the next sweep (see
  /// `retire`), so lookups go through `knownRow(of:)`.
  private var operationIndex = StaleNameIndex<String>(sweepAfter: 4096, timesLive: 4)
  private var recent = RecentRows()
  /// Where the event being folded says its operation is, or -1 (see `apply(_:rowHint:)`).
  private var rowHint = -1
  private var warningsBySubject: [String: [Int]] = [:]
  /// Dependents that named an operation before it was added to any queue.
  private var dependentsOfUnknown: [String: [String]] = [:]
  /// The reported cycles each operation belongs to (indices into `cycles`).
  private var cyclesOf: [String: [Int]] = [:]
  /// Cycles a member of which has finished (a cancel broke them): no longer a reason to wait.
  private var brokenCycles = Set<Int>()
  /// How many reported cycles were broken (a member finished).
  var brokenCycleCount: Int { brokenCycles.count }
  var brokenCycleIndices: Set<Int> { brokenCycles }
  /// The producer of the operation about to be added (didProduce comes right before operationAdded).
  private var producer: (producer: String, produced: String)?
  /// For an operation with many conditions (rows keyed by row): where each condition (by label)
  /// and each exclusivity category is in its list, so an event about one is not a scan of all.
  private var manyConditions: [Int: [ConditionKey: Int]] = [:]
  /// Above this many conditions, an operation's are indexed (see `manyConditions`).
  private static let conditionsScanned = 32

  /// Whether each operation's history of visits and observer calls is kept. The live runtime's
  /// lints fold without it: no standard lint reads either, and for every operation waiting in a
  /// queue the history is a reserved array of six visits and an append per transition, and the
  /// observer calls an array allocated and grown twice. Without it, `history` and `observers` are
  /// empty, `lastTransition` is nil and `state(at:)` reads `.initialized`.
  public let keepsHistory: Bool
  /// Whether each queue keeps the set of its unfinished and of its executing operations (for
  /// `members(of:)` and `executing(in:)`, which are empty without). The live runtime's lints fold
  /// without them: no lint reads them, and they cost four set updates an operation on its delivery.
  /// The counts by state are kept either way.
  public let keepsMembers: Bool
  /// Whether each operation keeps its dependents and how many of its dependencies finished (the
  /// board's "waits for" and the explanations read them). Without, both stay empty and 0; the live
  /// runtime's lints fold without them (no lint reads them; keeping them was a lookup and an
  /// allocation per dependency).
  public let keepsDependents: Bool

  public init(keepsHistory: Bool = true, keepsMembers: Bool = true, keepsDependents: Bool = true) {
    self.keepsHistory = keepsHistory
    self.keepsMembers = keepsMembers
    self.keepsDependents = keepsDependents
  }

  // MARK: - Lookup

  public func queue(named name: String) -> QueueInfo? { queueIndex[name].map { queues[$0] } }
  public func operation(named name: String) -> OperationInfo? {
    knownRow(of: name).map { operations[$0] }
  }
  /// The lints ask about the operation of the event just folded: that one is compared, not hashed.
  public func index(ofOperation name: String) -> Int? {
    recent.row(of: name) ?? knownRow(of: name)
  }
  public func index(ofQueue name: String) -> Int? { queueIndex[name] }

  /// Unfinished operations of a queue, in the order they were added.
  public func members(of queue: String) -> [OperationInfo] {
    guard let q = self.queue(named: queue) else { return [] }
    return q.memberSet.sorted().map { operations[$0] }
  }

  /// Operations executing in a queue, in the order they started.
  public func executing(in queue: String) -> [OperationInfo] {
    guard let q = self.queue(named: queue) else { return [] }
    return q.executingSet.map { operations[$0] }.sorted {
      ($0.startedAt ?? 0, $0.index) < ($1.startedAt ?? 0, $1.index)
    }
  }

  public func warnings(about subject: String) -> [WarningInfo] {
    (warningsBySubject[subject] ?? []).map { warnings[$0] }
  }

  /// State of each dependency (nil: not added to a queue yet).
  public func dependencyStates(of name: String) -> [(name: String, state: OperationState?)] {
    (operation(named: name)?.dependencies ?? []).map { ($0, operation(named: $0)?.state) }
  }
  public func dependentStates(of name: String) -> [(name: String, state: OperationState?)] {
    (operation(named: name)?.dependents ?? []).map { ($0, operation(named: $0)?.state) }
  }

  /// The cycle an operation belongs to, if any, while it is unfinished.
  public func cycle(containing name: String) -> [String]? {
    guard let i = cyclesOf[name]?.first(where: { !brokenCycles.contains($0) }) else { return nil }
    return cycles[i]
  }

  /// Lends the projection to `body` without copying it (a mutating method may pass `self` on as it
  /// is; a caller holding it in a class property would otherwise copy every field).
  mutating func lend(_ body: (borrowing Projection) -> Void) { body(self) }

  /// `lend` with an event passed along, borrowed too (a closure capturing it copied it, every field
  /// retained, on every event).
  mutating func lend(
    _ event: borrowing Event, _ body: (borrowing Projection, borrowing Event) -> Void
  ) { body(self, event) }

  // MARK: - Folding

  /// Moves the clock without an event (time passes between events while playing).
  public mutating func advanceClock(to time: Double) {
    if time > now { now = time }
  }

  public mutating func apply(_ event: borrowing Event) { apply(event, rowHint: -1) }

  /// `apply`, told where the event's operation is if this projection has folded every event since
  /// the start (the live runtime's lints: see `EventBuffer`). A wrong hint costs only a lookup by
  /// name: the row is used only if the operation there has that name and is not retired.
  mutating func apply(_ event: borrowing Event, rowHint: Int) {
    self.rowHint = rowHint
    lastSeq = event.seq
    version += 1
    if event.time > now { now = event.time }
    if !lastOvertaken.isEmpty { lastOvertaken = [] }
    let t = event.time
    switch event.kind {
    case .queueAdded(let q, let limit, let suspended, let qos):
      guard queueIndex[q] == nil else { break }
      queueIndex[q] = queues.count
      longestQueueName = max(longestQueueName, q.count)
      var info = QueueInfo(name: q, qos: qos, maxConcurrent: limit, suspended: suspended)
      info.noteChange(at: t)
      queues.append(info)
      if suspended { suspendedQueueCount += 1 }
    case .queueSuspended(let q):
      var change = 0
      updateQueue(q) {
        if !$0.suspended { change = 1 }
        $0.suspended = true
        $0.noteChange(at: t)
      }
      suspendedQueueCount += change
    case .queueResumed(let q):
      var change = 0
      updateQueue(q) {
        if $0.suspended { change = -1 }
        $0.suspended = false
        $0.noteChange(at: t)
      }
      suspendedQueueCount += change
    case .queueMaxConcurrent(let q, let value):
      updateQueue(q) {
        $0.maxConcurrent = value
        $0.noteChange(at: t)
      }
    case .operationAdded(
      let o, let q, let p, let qos, let kind, let deps, let conds, let excl, let w):
      // Most operations have neither: no arrays mapped and joined for nothing.
      let conditions =
        conds.isEmpty && excl.isEmpty
        ? []
        : conds.map { ConditionInfo(name: $0, category: nil) }
          + excl.map { ConditionInfo(name: $0, category: $0) }
      addOperation(
        o, queue: q, priority: p, qos: qos, kind: kind, deps: deps, conditions: conditions,
        work: w, at: t)
    case .dependencyAdded(let o, let d):
      guard let i = row(of: o) else { break }
      structureVersion += 1
      if operations.read(i, { $0.pointee.dependencies.isEmpty }) { traits.dependencies += 1 }
      operations[i].dependencies.append(d)
      noteDependent(o, at: i, on: d)
    case .state(let o, let from, let to, let cause):
      transition(o, from: from, to: to, cause: cause, event: event)
    case .conditionWaiting(let o, let c, let d):
      updateCondition(o, .condition(c)) { $0.dependency = d }
    case .conditionStarted(let o, let c):
      updateCondition(o, .condition(c)) {
        $0.status = .evaluating
        $0.evaluationStarted = t
      }
    case .conditionResult(let o, let c, let result, let error):
      updateCondition(o, .condition(c)) {
        $0.status = result == .satisfied ? .satisfied : .failed
        $0.error = error
        $0.evaluationEnded = t
      }
    case .exclusivityWaiting(let o, let category, let holder):
      updateOperation(o) { $0.waitingForLock = (category, holder) }
      startReclaiming(o)
      updateCondition(o, .lock(category)) {
        $0.status = .waitingForExclusivity
        $0.holder = holder
      }
    case .exclusivityAcquired(let o, let category):
      lockHolders[category] = o
      updateOperation(o) { $0.waitingForLock = nil }
      updateCondition(o, .lock(category)) {
        $0.status = .holdsLock
        $0.holder = nil
      }
    case .exclusivityReleased(let o, let category):
      if lockHolders[category] == o { lockHolders[category] = nil }
      updateCondition(o, .lock(category)) { $0.status = .released }
    case .cancelled(let o, let errors, let why):
      guard let i = row(of: o) else { break }
      // Read in place: the subscript's getter copies the whole record.
      let (wasCancelled, queue) = operations.read(i) {
        ($0.pointee.cancelled, $0.pointee.queueIndex)
      }
      if !wasCancelled {
        traits.cancelled += 1
        if let q = queue { queues[q].cancelled += 1 }
      }
      operations[i].cancelled = true
      if operations.read(i, { $0.pointee.cancelledAt == nil }) { operations[i].cancelledAt = t }
      operations[i].cancelCause = why
      if !errors.isEmpty && operations.read(i, { $0.pointee.errors.isEmpty }) { traits.errors += 1 }
      operations[i].errors += errors
      // Cancelled, it leaves the line for a lock, unless its queue started it: then it keeps asking
      // (X10) and finishes once it has the lock.
      if !operations.read(i, { $0.pointee.reclaiming }) { operations[i].waitingForLock = nil }
    case .didFinish(let o, let errors, _):
      guard let i = row(of: o) else { break }
      traits.errors +=
        (errors.isEmpty ? 0 : 1) - (operations.read(i, { $0.pointee.errors.isEmpty }) ? 0 : 1)
      operations[i].errors = errors
      noteObserver("didFinish", of: i, at: t)
    case .willFinish(let o, _, _): noteObserver("willFinish", of: o, at: t)
    case .didStart(let o): noteObserver("didStart", of: o, at: t)
    case .completion(let o): noteObserver("completion", of: o, at: t)
    case .didProduce(let o, let produced):
      producer = (o, produced)
    case .cycleDetected(let ops):
      for o in ops { cyclesOf[o, default: []].append(cycles.count) }
      cycles.append(ops)
      for o in ops { updateOperation(o) { $0.inCycle = true } }
    case .warning(let kind, let subject, let message):
      warningsBySubject[subject, default: []].append(warnings.count)
      warnings.append(
        WarningInfo(kind: kind, subject: subject, time: t, seq: event.seq, message: message))
    case .command(let c, let target, let value, let source):
      commands.append(
        CommandInfo(
          seq: event.seq, time: t, command: c, target: target, value: value, source: source))
    case .cancelTooLate, .refused:
      break  // nothing changes: the log shows them from the event itself
    }
  }

  // MARK: - Retirement

  /// What a retired operation's record reads as: finished, nameless, with nothing in it.
  static let retiredStandIn = OperationInfo(
    name: "", index: -1, queue: "", priority: .normal, qos: .default, kind: .plain, work: nil,
    state: .finished, enteredState: 0, dependencies: [], conditions: [], history: [])

  /// Forgets a finished operation: its name is no longer known, and once every operation of its
  /// chunk of `operations` is retired the chunk is released (each then reads as `retiredStandIn`;
  /// until then the record reads as it was, finished, with index -1: overwriting it with the
  /// stand-in at once would cost every retirement on the live runtime's delivery thread).
  /// The live runtime's lints fold the whole stream, so without this they would keep every
  /// operation ever run; it retires an operation here once its core has retired it (see
  /// `LiveRetention`): finished, and every operation that depends on it finished, so no later event
  /// names it.
  ///
  /// Its name stays in the index until a sweep (see `StaleNameIndex`: removing it at once would
  /// hash it on every retirement on the live runtime's delivery thread). Sweeps come less often
  /// than the engine's (`EngineCore.retire`): more than 4,096 stale names and four times as many as
  /// live ones, for a sweep rehashes every live name, and the lints' projection keeps few.
  /// `rowHint`: where the operation is, if known (see `EventBuffer`).
  mutating func retire(_ name: String, rowHint: Int = -1) {
    guard let i = knownRow(of: name, hint: rowHint) else { return }
    precondition(
      operations.read(i) { $0.pointee.state } == .finished, "\(name) is retired before it finished")
    recent.forget(row: i)
    // Its traits go with it: the stand-in has none.
    var counts = traits
    operations.read(i) { counts.count(at: $0, by: -1) }
    traits = counts
    if !manyConditions.isEmpty { manyConditions[i] = nil }
    // Marked as the stand-in is: neither a hint nor its stale name finds it again.
    operations[i].index = -1
    operations.retire(i, standIn: Self.retiredStandIn)
    if operationIndex.noteRetired() {
      let records = operations
      operationIndex.sweep { !Self.isLive($0, in: records) }
    }
  }

  /// Whether the record at `i` is not retired (a retired one reads index -1).
  private func isLive(_ i: Int) -> Bool { Self.isLive(i, in: operations) }
  private static func isLive(_ i: Int, in records: ChunkedArray<OperationInfo>) -> Bool {
    records.read(i) { $0.pointee.index } == i
  }

  /// The row of a known operation by name (a retired one's may still be in the index).
  private func knownRow(of name: String) -> Int? {
    operationIndex.row(of: name) { !isLive($0) }
  }

  /// `knownRow(of:)`, trying `hint` first: it is taken only if that row holds the operation
  /// `name`, not retired.
  private func knownRow(of name: String, hint: Int) -> Int? {
    let holds =
      hint >= 0 && hint < operations.count
      && operations.read(hint) { $0.pointee.index == hint && $0.pointee.name == name }
    return holds ? hint : knownRow(of: name)
  }

  /// Operations known by name (retired ones are not).
  var knownOperationCount: Int { operationIndex.liveCount }

  // MARK: - Updates

  private mutating func row(of name: String) -> Int? {
    if let i = recent.touch(name) { return i }
    guard let i = knownRow(of: name, hint: rowHint) else { return nil }
    recent.remember(name, at: i)
    return i
  }

  /// Records an observer call (only with histories: no lint reads them). Most operations have three
  /// (didStart, willFinish, didFinish): room for them at once, not an array grown twice.
  private mutating func noteObserver(_ name: String, of i: Int, at time: Double) {
    guard keepsHistory else { return }
    operations[i].observers.appendKeepingRoom(ObserverCall(name: name, time: time), forAtLeast: 3)
  }

  /// `noteObserver` by the operation's name (not looked up without histories).
  private mutating func noteObserver(_ name: String, of o: String, at time: Double) {
    guard keepsHistory, let i = row(of: o) else { return }
    noteObserver(name, of: i, at: time)
  }

  private mutating func updateQueue(at i: Int, _ change: (inout QueueInfo) -> Void) {
    change(&queues[i])
  }

  private mutating func updateQueue(_ name: String, _ change: (inout QueueInfo) -> Void) {
    guard let i = queueIndex[name] else { return }
    change(&queues[i])
  }

  private mutating func updateOperation(_ name: String, _ change: (inout OperationInfo) -> Void) {
    guard let i = row(of: name) else { return }
    change(&operations[i])
  }

  /// Changes one of `o`'s conditions or categories, found by its index when `o` has many (see
  /// `manyConditions`), else by a scan: the first that `key` names.
  private mutating func updateCondition(
    _ o: String, _ key: ConditionKey, _ change: (inout ConditionInfo) -> Void
  ) {
    guard let i = row(of: o) else { return }
    let found =
      manyConditions.isEmpty ? nil : manyConditions[i].map { $0[key] ?? -1 }
    guard
      let c = found ?? operations.read(i, { $0.pointee.conditions.firstIndex(where: key.names) }),
      c >= 0
    else { return }
    change(&operations[i].conditions[c])
  }

  /// How `manyConditions` and updates name a condition (by label) or a category.
  enum ConditionKey: Hashable {
    case condition(String)
    case lock(String)

    init(_ info: ConditionInfo) { self = info.category.map(Self.lock) ?? .condition(info.name) }

    func names(_ info: ConditionInfo) -> Bool {
      switch self {
      case .condition(let label): !info.isLock && info.name == label
      case .lock(let category): info.category == category
      }
    }
  }

  /// Indexes the conditions of a new operation that has many (see `manyConditions`).
  private mutating func indexConditions(_ conditions: [ConditionInfo], ofRow i: Int) {
    guard conditions.count > Self.conditionsScanned else { return }
    var index: [ConditionKey: Int] = [:]
    for (c, info) in conditions.enumerated() {
      let key = ConditionKey(info)
      // The first of a name, as a scan would find it.
      if index[key] == nil { index[key] = c }
    }
    manyConditions[i] = index
  }

  private mutating func addOperation(
    _ o: String, queue q: String, priority: QueuePriority, qos: QoS,
    kind: OperationKind, deps: [String], conditions: [ConditionInfo], work: Double?,
    at time: Double
  ) {
    let i = operations.count
    // One hash for the check and the entry.
    if let earlier = operationIndex.claim(o, for: i) {
      // An operation already added is left as it was; a retired one's name is taken again.
      guard !isLive(earlier) else { return }
      operationIndex.reclaim(o, for: i)
    }
    structureVersion += 1
    // Room for the usual path (initialized, pending, ready, executing, finishing, finished): grown
    // from one, a history doubles to 8 visits and is copied three times on the way.
    var history: [StateVisit] = []
    if keepsHistory {
      history.reserveCapacity(conditions.isEmpty ? 6 : 7)
      history.append(StateVisit(state: .initialized, time: time, cause: nil))
    }
    let qi: Int?
    if let last = lastQueueAdded, last.name == q {
      qi = last.index
    } else {
      qi = queueIndex[q]
      if let qi { lastQueueAdded = (q, qi) }
    }
    // Appended as a temporary, so it is moved into its chunk: a variable would be copied there
    // (and destroyed here), and `consume` of it is refused by this compiler. The rare fields are
    // set in place after.
    operations.append(
      OperationInfo(
        name: o, index: i, queue: q, priority: priority, qos: qos, kind: kind, work: work,
        enteredState: time, dependencies: deps, conditions: conditions, history: history))
    operations[i].queueIndex = qi
    indexConditions(conditions, ofRow: i)
    operations.read(i) { traits.count(at: $0, by: 1) }
    // Both are empty in most runs: no hashing of the name for them then.
    if !dependentsOfUnknown.isEmpty, let dependents = dependentsOfUnknown.removeValue(forKey: o) {
      operations[i].dependents = dependents
    }
    if !cyclesOf.isEmpty && cyclesOf[o] != nil { operations[i].inCycle = true }
    if let p = producer, p.produced == o {
      operations[i].producedBy = p.producer
      producer = nil
    }
    if let g = GroupQueueName.group(owning: q), knownRow(of: g) != nil { operations[i].parent = g }
    // Its next events (pending, ready) find it without hashing its name.
    recent.remember(o, at: i)
    unfinishedCount += 1
    // A name has no more characters than UTF-8 bytes: most are not counted at all.
    if o.utf8.count > longestOperationName {
      longestOperationName = max(longestOperationName, o.count)
    }
    if let qi {
      queues[qi].counts[.initialized] += 1
      if keepsMembers { queues[qi].memberSet.insert(i) }
    }
    for d in deps { noteDependent(o, at: i, on: d) }
  }

  /// `o` (at `i`) depends on `d`: `d` lists it among its dependents, and it counts `d` if finished.
  private mutating func noteDependent(_ o: String, at i: Int, on d: String) {
    guard keepsDependents else { return }
    if let j = knownRow(of: d) {
      operations[j].dependents.append(o)
      if operations.read(j, { $0.pointee.state }) == .finished {
        operations[i].finishedDependencies += 1
      }
    } else {
      dependentsOfUnknown[d, default: []].append(o)
    }
  }

  private mutating func transition(
    _ o: String, from: OperationState, to: OperationState, cause: StateCause,
    event: borrowing Event
  ) {
    guard let i = row(of: o) else { return }
    let (level, queueIndex) = operations.read(i) {
      ($0.pointee.priority.level, $0.pointee.queueIndex)
    }
    if let q = queueIndex {
      let members = keepsMembers
      updateQueue(at: q) {
        $0.counts[from] -= 1
        $0.counts[to] += 1
        guard members else { return }
        switch to {
        case .executing: $0.executingSet.insert(i)
        case .finishing where from == .executing: $0.executingSet.remove(i)
        case .finished: $0.memberSet.remove(i)
        default: break
        }
      }
      if from == .ready { leaveReady(i, level: level, queue: q) }
      if from == .ready && operations.read(i, { $0.pointee.reclaiming }) {
        operations[i].reclaiming = false
        queues[q].reclaiming -= 1
        reclaimingCount -= 1
      }
      if to == .ready { enterReady(i, level: level, queue: q) }
    }
    switch to {
    case .executing: executingCount += 1
    case .finishing where from == .executing: executingCount -= 1
    case .finished:
      unfinishedCount -= 1
      if !cyclesOf.isEmpty, let broken = cyclesOf[o] { brokenCycles.formUnion(broken) }
    default: break
    }
    Self.enter(&operations[i], to, from: from, cause: cause, event: event, history: keepsHistory)
    if to == .executing { noteOvertaken(by: i) }
    if to == .finished {
      for d in operations.read(i, { $0.pointee.dependents }) {
        if let j = knownRow(of: d) { operations[j].finishedDependencies += 1 }
      }
    }
  }

  /// The operation's own record of a transition, changed in place: a copy of the record would copy
  /// its history with it, on every event.
  private static func enter(
    _ op: inout OperationInfo, _ to: OperationState, from: OperationState, cause: StateCause,
    event: borrowing Event, history: Bool
  ) {
    let t = event.time
    op.state = to
    op.enteredState = t
    if history { op.history.append(StateVisit(state: to, time: t, cause: cause)) }
    switch to {
    case .ready:
      op.readySince = t
      op.readySeq = event.seq
    case .executing:
      op.startedAt = t
      op.readySince = nil
    case .finished:
      op.finishedAt = t
      op.finishSeq = event.seq
      // Conditions never evaluated will never be: say so rather than "not evaluated yet".
      for c in op.conditions.indices
      where op.conditions[c].status == .waiting || op.conditions[c].status == .evaluating {
        op.conditions[c].status = .abandoned
      }
    default:
      break
    }
  }

  private mutating func enterReady(_ i: Int, level: Int, queue q: Int) {
    operations[i].readySlot = queues[q].readyByPriority[level].count
    queues[q].readyByPriority[level].append(i)
  }

  /// A ready operation that waits for a lock was started by its queue and asks again for a lock
  /// given back while the queue was suspended (X10; waiting ones are otherwise still evaluating): it
  /// leaves the ready line and holds a slot.
  private mutating func startReclaiming(_ o: String) {
    guard let i = row(of: o) else { return }
    let (state, reclaiming, level, queueIndex) = operations.read(i) {
      ($0.pointee.state, $0.pointee.reclaiming, $0.pointee.priority.level, $0.pointee.queueIndex)
    }
    guard state == .ready, !reclaiming, let q = queueIndex else { return }
    leaveReady(i, level: level, queue: q)
    operations[i].reclaiming = true
    queues[q].reclaiming += 1
    reclaimingCount += 1
  }

  /// The last of the list takes the leaving one's place.
  private mutating func leaveReady(_ i: Int, level: Int, queue q: Int) {
    let p = operations.read(i) { $0.pointee.readySlot }
    guard p >= 0 else { return }
    let last = queues[q].readyByPriority[level].removeLast()
    if last != i {
      queues[q].readyByPriority[level][p] = last
      operations[last].readySlot = p
    }
    operations[i].readySlot = -1
  }

  /// Anyone of lower priority who was ready and waiting in the same queue has just been overtaken.
  /// Reads the starter's fields in place: a copy of its record, and of its queue's, on every start
  /// was a measurable part of the fold at 50,000 operations.
  private mutating func noteOvertaken(by i: Int) {
    let (level, queueIndex) = operations.read(i) {
      ($0.pointee.priority.level, $0.pointee.queueIndex)
    }
    guard level > 0, let qi = queueIndex else { return }
    let starter = operations.read(i) { $0.pointee.name }
    for lower in 0..<level where !queues[qi].readyByPriority[lower].isEmpty {
      // Sorted: a Set's order differs between instances, and the stream must be byte-identical.
      for m in queues[qi].readyByPriority[lower].sorted() {
        let (cancelled, name) = operations.read(m) { ($0.pointee.cancelled, $0.pointee.name) }
        guard !cancelled else { continue }
        operations[m].overtakenBy.append(starter)
        lastOvertaken.append(name)
      }
    }
  }

  public static func == (a: Projection, b: Projection) -> Bool {
    a.lastSeq == b.lastSeq && a.now == b.now && a.queues == b.queues
      && a.operations == b.operations && a.cycles == b.cycles && a.warnings == b.warnings
      && a.commands == b.commands
  }
}

extension Array {
  /// Appends, reserving room for `n` elements when the array has none yet.
  fileprivate mutating func appendKeepingRoom(_ element: Element, forAtLeast n: Int) {
    if capacity == 0 { reserveCapacity(n) }
    append(element)
  }
}
