import OpsEvents

/// What the state machine needs from a runtime: a clock, a way to run work and evaluate conditions,
/// and timers. Hosts must not call back into the core synchronously from these methods.
protocol EngineHost: AnyObject {
  var now: Double { get }
  /// Takes each event of the core, owned, in order (the live runtime buffers it without a copy). A
  /// method of the host rather than a stored closure: calling one retained and released its context
  /// at every event, under the live runtime's lock.
  func record(_ event: consuming Event)
  func execute(_ op: OperationRecord)
  func evaluate(_ op: OperationRecord, condition index: Int)
  func cancelExecuting(_ op: OperationRecord)
  /// An executing operation of immediate cancellation was cancelled: the engine finishes it at once,
  /// and its work, still running, is told to stop (the live runtime sets its context's flag).
  func abandonExecuting(_ op: OperationRecord)
  func schedule(after seconds: Double, _ timer: EngineTimer)
}

enum EngineTimer: Sendable {
  case timeout(op: Int)
  case completion(op: Int)
}

/// How an executing operation's work ended, as the runtime saw it.
enum WorkEnd {
  /// The work returned (or an async operation called finish) with these errors.
  case returned(errors: [String])
  /// Cooperative work saw `isCancelled` at its check at this time and stopped.
  case noticedCancel(at: Double)
}

public enum EngineError: Error, Equatable, CustomStringConvertible, Sendable {
  case duplicateQueue(String)
  case duplicateOperation(String)
  case unknownQueue(String)
  case unknownOperation(String)
  case alreadyEnqueued(String)
  case dependencyTooLate(String, OperationState)
  /// A queue name that a group's inner queue needs (`g.children` for group `g`).
  case reservedQueueName(String, group: String)
  /// A number from a caller that the engine cannot use (negative, not finite, too large).
  case invalidNumber(String)

  public var description: String {
    switch self {
    case .duplicateQueue(let n): "a queue named '\(n)' already exists"
    case .duplicateOperation(let n): "an operation named '\(n)' already exists"
    case .unknownQueue(let n): "no queue named '\(n)'"
    case .unknownOperation(let n): "no operation named '\(n)'"
    case .alreadyEnqueued(let n): "operation '\(n)' was already added to a queue"
    case .dependencyTooLate(let n, let s):
      "operation '\(n)' is already \(s.rawValue): a dependency can only be added while it is pending"
    case .reservedQueueName(let n, let g):
      "the queue name '\(n)' is reserved for the children of group '\(g)'"
    case .invalidNumber(let what): what
    }
  }
}

/// The one state machine both runtimes share. Not thread-safe: the live runtime serialises access.
/// `@exclusivity(unchecked)` on its stored properties: the core is only ever used from one thread at a
/// time (the virtual runtime's, or under the live runtime's lock), and the dynamic exclusivity checks were
/// about a fifth of the instructions of an operation's lifecycle.
///
/// The core is split by concern: building and commands here; readiness (dependencies, conditions,
/// exclusivity) in `EngineCore+Readiness`; starting in `EngineCore+Scheduling`; finishing, groups and
/// production in `EngineCore+Finishing`; cancellation in `EngineCore+Cancellation`; cycles in
/// `CycleDetector`.
final class EngineCore {
  // unowned(unsafe): the runtime owns the core and outlives it; no retain/release per host call.
  unowned(unsafe) let host: any EngineHost
  @exclusivity(unchecked) private(set) var seq = 0
  /// By id. Chunked, and a chunk of retired operations is released (see `retire`): with the live
  /// runtime's retention its memory follows the operations still known, and it never reallocates one
  /// large block (a flat array of 1M references freed 4 MB when it last grew; glibc then raises its
  /// mmap and trim thresholds to that size, after which the threads' arenas keep more of what they
  /// free).
  @exclusivity(unchecked) var ops = ChunkedArray<OperationRecord>()
  @exclusivity(unchecked) var queues: [QueueRecord] = []
  /// By id, what retiring each operation reads (see `RetireHint`).
  @exclusivity(unchecked) var retireHints = ChunkedArray<RetireHint>()
  /// Operation ids by name; a retired operation's name is removed as it retires (see `retire`).
  @exclusivity(unchecked) var opByName = OperationNameIndex()
  @exclusivity(unchecked) private var queueByName: [String: Int] = [:]
  @exclusivity(unchecked) private var lastQueueFound: QueueRecord?
  /// The last operations created (see `RecentOperations`).
  @exclusivity(unchecked) private var recentlyCreated = RecentOperations()
  @exclusivity(unchecked) var locks: [String: CategoryLock] = [:]
  @exclusivity(unchecked) var cycles = CycleDetector()
  @exclusivity(unchecked) private var enqueueCounter = 0
  /// Scheduling work to do before control returns to the runtime, in Foundation's order.
  enum QueueTask {
    /// Re-run a queue's scheduling (an operation in it became ready, or it was resumed/widened).
    case schedule(queue: Int)
    /// A finished operation gives its slot back, then its queue schedules.
    case release(queue: Int, by: Int)
    /// A barrier's dispatch work item is over: what was dispatched behind it begins.
    case openGate(queue: Int)
  }
  /// Foundation's barrier bookkeeping of one queue (indexed by queue id).
  struct Barriers {
    /// Barriers not yet dispatched: every operation added to the queue depends on them.
    var waiting: [Int] = []
    /// Ready barriers, FIFO. They start before any other ready operation (Foundation's barrier
    /// priority, above veryHigh).
    var ready = ReadyList()
    /// The barrier executing: Foundation runs it as a barrier block on the queue's concurrent dispatch
    /// queue, so operations dispatched meanwhile take their slot but begin only after it.
    var gate: Int?
    /// Those operations, in dispatch order.
    var held: [Int] = []
  }
  @exclusivity(unchecked) var barriers: [Barriers] = []
  @exclusivity(unchecked) var queueTasks: [QueueTask] = []
  @exclusivity(unchecked) var queueTaskHead = 0
  /// By queue id: a `.schedule` of the queue is in `queueTasks` (a flag, not a set: no hashing per step).
  @exclusivity(unchecked) var dirty: [Bool] = []
  @exclusivity(unchecked) var settling = false
  @exclusivity(unchecked) var startedBuffer: [OperationRecord] = []
  /// Stands in for every retired operation (see `EngineCore+Retirement`): finished, nameless.
  let retiredPlaceholder: OperationRecord = {
    let r = OperationRecord(id: -1, spec: OperationSpec(name: ""))
    r.state = .finished
    return r
  }()
  @exclusivity(unchecked) var retiredCount = 0
  /// Operations finished since the host last emptied it, when the host asks for it (retention).
  @exclusivity(unchecked) var finishedLog: [Int]?
  /// Operations added to a queue that have not finished (Foundation's `operationCount` over every
  /// queue), counted here as the states change: the live runtime waits and paces on it, and reading
  /// it off each event it buffered was a switch over every event under its lock.
  @exclusivity(unchecked) private(set) var unfinished = 0
  /// Operations that finished so far: the live runtime's pacing sees progress in it.
  @exclusivity(unchecked) private(set) var finishedCount = 0
  /// Whether an operation finished since the host last cleared it (see `clearFinished`).
  @exclusivity(unchecked) private(set) var finishedSinceCleared = false
  /// `operationAdded` events so far (see `OperationRecord.foldRow`).
  @exclusivity(unchecked) private var addedCount = 0

  /// Where the events go when the host buffers them (the live runtime): appended directly, at
  /// `stepTime`, instead of through `host.record` and `host.now`. Each call through the host retained
  /// and released it twice, ~120 instructions an event under the live runtime's lock. Without a sink
  /// (the virtual runtime) every event goes to `host.record` as it happens.
  let sink: EventBuffer
  private let sinks: Bool
  /// The time of the current step's events when there is a sink (the host sets it as a step begins).
  @exclusivity(unchecked) var stepTime = 0.0

  init(host: any EngineHost, sink: EventBuffer? = nil) {
    self.host = host
    self.sink = sink ?? EventBuffer(roomAfterGrowth: 1024)
    sinks = sink != nil
  }

  // MARK: - Lookup

  /// A retired operation is not found (its name may still be among `recentlyCreated`).
  func operation(named name: String) -> OperationRecord? {
    // The newest operation of a name is its only live one: an older one of the same name was
    // retired before the newer could claim the name.
    guard
      let id = recentlyCreated.id(of: name)
        ?? opByName.id(hash: name.hashValue, where: { ops[$0].name == name })
    else {
      return nil
    }
    let op = ops[id]
    return op === retiredPlaceholder ? nil : op
  }
  /// The last queue found is remembered: a program usually adds to the same queue many times, and
  /// comparing a short name costs less than hashing it.
  func queue(named name: String) -> QueueRecord? {
    if let last = lastQueueFound, last.name == name { return last }
    guard let id = queueByName[name] else { return nil }
    lastQueueFound = queues[id]
    return queues[id]
  }

  func emit(_ kind: consuming EventKind) { emit(kind, hint: -1) }

  /// `emit` for an event about `op`, with its `foldRow` as the buffered event's hint: the events
  /// every operation has (its states and observers) are found in the lints' projection by it
  /// rather than by hashing the name.
  func emit(_ kind: consuming EventKind, about op: OperationRecord) {
    emit(kind, hint: op.foldRow)
  }

  private func emit(_ kind: consuming EventKind, hint: Int) {
    seq += 1
    if sinks {
      sink.append(Event(seq: seq, time: stepTime, kind: kind), hint: hint)
    } else {
      host.record(Event(seq: seq, time: host.now, kind: kind))
    }
  }

  func transition(_ op: OperationRecord, to state: OperationState, _ cause: StateCause) {
    let from = op.state
    precondition(state > from, "states only move forward: \(op.name) \(from) → \(state)")
    op.state = state
    if state == .pending {
      unfinished += 1
    } else if state == .finished {
      unfinished -= 1
      finishedCount += 1
      finishedSinceCleared = true
    }
    emit(.state(operation: op.name, from: from, to: state, cause: cause), about: op)
  }

  func clearFinished() { finishedSinceCleared = false }

  // MARK: - Building

  @discardableResult
  func addQueue(_ spec: QueueSpec) throws -> QueueRecord {
    guard queueByName[spec.name] == nil else { throw EngineError.duplicateQueue(spec.name) }
    if let m = spec.maxConcurrent, m < 0 {
      throw EngineError.invalidNumber(
        "maxConcurrent of queue '\(spec.name)' is \(m): it must be 0 or more (nil for no limit)")
    }
    if let group = GroupQueueName.group(owning: spec.name), let g = operation(named: group),
      g.kind == .group
    {
      throw EngineError.reservedQueueName(spec.name, group: group)
    }
    return addQueueRecord(spec)
  }

  func addQueueRecord(_ spec: QueueSpec) -> QueueRecord {
    let q = QueueRecord(id: queues.count, spec: spec)
    queues.append(q)
    barriers.append(Barriers())
    dirty.append(false)
    queueByName[spec.name] = q.id
    emit(
      .queueAdded(queue: q.name, maxConcurrent: q.maxConcurrent, suspended: q.suspended, qos: q.qos)
    )
    return q
  }

  /// The inner queue of group `g` is named `g.children`.

  /// Creates an operation in `initialized`; it joins the board when it is added to a queue.
  @discardableResult
  func createOperation(_ spec: consuming OperationSpec) throws -> OperationRecord {
    try createOperation(adopting: OperationRecord(id: -1, spec: spec), validated: false)
  }

  /// `createOperation` for a record built beforehand, numbered here. `validated`: its spec already
  /// passed `validate` (the live runtime builds and checks it before it takes its lock; a spec that
  /// failed is checked again here, so a duplicate name is still the error reported first).
  func createOperation(adopting op: OperationRecord, validated: Bool) throws -> OperationRecord {
    let id = ops.count
    let name = op.name
    // A retired operation's name is no longer in the index: a new operation may take it.
    guard opByName.claim(hash: op.nameHash, for: id, where: { ops[$0].name == name }) == nil else {
      throw EngineError.duplicateOperation(name)
    }
    do {
      if !validated { try Self.validate(op.spec) }
      if op.kind == .group, queueByName[GroupQueueName.inner(of: op.name)] != nil {
        throw EngineError.reservedQueueName(GroupQueueName.inner(of: op.name), group: op.name)
      }
    } catch {
      opByName.remove(hash: op.nameHash, id: id)
      throw error
    }
    op.id = id
    retireHints.append(RetireHint(nameHash: op.nameHash))
    ops.append(op)
    recentlyCreated.note(op.name, id: id)
    return op
  }

  /// Numbers from a caller: finite, not negative, and small enough for the virtual clock's microseconds.
  static func validate(_ spec: OperationSpec) throws {
    func check(_ v: Double, _ what: String) throws {
      guard v.isFinite, v >= 0, v <= maxSeconds else {
        throw EngineError.invalidNumber(
          "\(what) of operation '\(spec.name)' is \(v): it must be a number of seconds from 0 to "
            + "\(Int(maxSeconds))")
      }
    }
    if let t = spec.timeout { try check(t, "timeout") }
    try check(spec.work.duration, "work duration")
    try check(spec.work.checkEvery, "checkEvery")
    for b in spec.work.blocks { try check(b, "a block's duration") }
    for p in spec.work.produces { try check(p.at, "the time of producing \(p.operation)") }
    for c in spec.conditions { try check(c.evaluate, "the evaluation time of \(c.name)") }
  }

  /// The longest span of seconds the engine accepts anywhere (about 31 years): the virtual clock counts
  /// microseconds in 64 bits, and nothing a person watches lasts longer.
  static let maxSeconds = 1e9

  /// Resolves the declared dependencies by name (they may be created in any order).
  func resolveDeclaredDependencies(_ op: OperationRecord) throws {
    let names = op.spec.dependencies
    try linkDeclared(op, count: names.count) { i in
      guard let dep = operation(named: names[i]) else {
        throw EngineError.unknownOperation(names[i])
      }
      return dep
    }
  }

  /// The names of an operation's dependencies, in order: the spec's own list when they are the same
  /// (the usual case), so no array is built and filled under the live runtime's lock.
  private func dependencyNames(of op: OperationRecord) -> [String] {
    let declared = op.spec.dependencies
    if declared.count == op.dependencies.count
      && zip(op.dependencies, declared).allSatisfy({ ops.read($0) { $0.pointee.name } == $1 })
    {
      return declared
    }
    return op.dependencies.map { ops[$0].name }
  }

  /// Links `op` to its `count` declared dependencies, the `i`th given by `dependency(i)`: by name
  /// (`resolveDeclaredDependencies`), or already looked up (the live runtime checks they exist
  /// before creating `op`). A few (the usual case) are deduplicated by `link` against what is
  /// linked so far, without allocating a set; more go through a set, so a wide fan-in links in
  /// linear time.
  func linkDeclared(
    _ op: OperationRecord, count: Int, _ dependency: (Int) throws -> OperationRecord
  ) rethrows {
    let fresh = op.dependencies.isEmpty
    // One allocation for the list, not one per growth as it is filled.
    if fresh { op.dependencies.reserveCapacity(count) }
    var seen: Set<Int>? = count > 8 ? Set(minimumCapacity: count) : nil
    for i in 0..<count {
      let dep = try dependency(i)
      if seen == nil {
        link(op, dependsOn: dep)
      } else if seen!.insert(dep.id).inserted {
        link(op, dependsOn: dep, known: fresh)
      }
    }
  }

  /// `known`: the caller knows `dep` is not yet among `op`'s dependencies (skips a linear check).
  func link(_ op: OperationRecord, dependsOn dep: OperationRecord, known: Bool = false) {
    guard known || !op.dependencies.contains(dep.id) else { return }
    op.dependencies.append(dep.id)
    dep.dependents.append(op.id)
    if op.state != .finished {
      dep.unfinishedDependents += 1
      mayNotRetire(dep)
    }
    if dep.state != .finished {
      op.unfinishedDependencies += 1
      cycles.edgeAdded(from: op.id, to: dep.id, in: ops)
    }
  }

  /// Adds a dependency after creation; reported as an event once the operation is on a queue.
  /// The runtimes' `addDependency`: resolves both names, links, and lets queues react.
  func addDependency(named operation: String, on dependency: String) throws {
    guard let op = self.operation(named: operation) else {
      throw EngineError.unknownOperation(operation)
    }
    guard let dep = self.operation(named: dependency) else {
      throw EngineError.unknownOperation(dependency)
    }
    try addDependency(op, on: dep)
    settle()
  }

  /// States only move forward, so an operation past `pending` cannot wait for anything new.
  func addDependency(_ op: OperationRecord, on dep: OperationRecord) throws {
    guard op.state <= .pending else { throw EngineError.dependencyTooLate(op.name, op.state) }
    guard !op.dependencies.contains(dep.id) else { return }
    link(op, dependsOn: dep)
    if op.isEnqueued {
      emit(.dependencyAdded(operation: op.name, dependency: dep.name))
      reportCycles(of: op)
    }
  }

  /// Reports, once, each cycle through `op` found when its edges were linked (now that it is on a queue).
  func reportCycles(of op: OperationRecord) {
    // Most runs find no cycle at all: no lookup, and no copy of `ops` handed over, per operation.
    guard cycles.hasAny else { return }
    for members in cycles.unreported(through: op.id, in: ops) {
      emit(.cycleDetected(operations: members.map { ops[$0].name }))
    }
  }

  // MARK: - Enqueueing

  func enqueue(_ op: OperationRecord, on queue: QueueRecord) throws {
    guard !op.isEnqueued else { throw EngineError.alreadyEnqueued(op.name) }
    // Foundation's addBarrierBlock: a barrier depends on everything in its queue, and an operation added
    // later depends on every barrier not yet dispatched. On an empty queue the barrier is no operation
    // of the queue at all: its block goes straight to the dispatch queue, whatever the suspension or
    // the limit (`detached`).
    let detached = op.spec.barrier && queue.members.isEmpty
    if op.spec.barrier {
      let members = queue.members.ids.sorted { ops[$0].order < ops[$1].order }
      for m in members { link(op, dependsOn: ops[m]) }
      if !detached { barriers[queue.id].waiting.append(op.id) }
    } else {
      for b in barriers[queue.id].waiting where !op.dependencies.contains(b) {
        link(op, dependsOn: ops[b])
        op.barrierDependencies.append(b)
      }
    }

    // Condition-produced dependencies (a `login` for `loggedIn`) join with the operation and run after
    // its own dependencies; only their condition waits for them (ProcedureKit `Condition.swift`:
    // produced dependencies are dependencies of the condition's evaluation, not of the procedure).
    var produced: [OperationRecord] = []
    for (i, c) in op.spec.conditions.enumerated() where !c.silent {
      guard let name = c.dependency, let dep = operation(named: name), !dep.isEnqueued else {
        continue
      }
      for d in op.dependencies where d != dep.id { link(dep, dependsOn: ops[d]) }
      op.producedDependencies[i] = dep.id
      dep.producedFor = (op.id, i)
      mayNotRetire(dep)
      produced.append(dep)
    }

    op.queue = queue.id
    enqueueCounter += 1
    op.order = enqueueCounter
    // Foundation derives a priority from the operation's QoS only on a non-serial queue.
    op.priority =
      op.spec.priority ?? (queue.maxConcurrent == 1 ? .normal : op.spec.qos.derivedPriority)
    if !detached { queue.members.insert(op) }
    op.foldRow = addedCount
    addedCount += 1
    emit(
      .operationAdded(
        operation: op.name, queue: queue.name, priority: op.priority, qos: op.spec.qos,
        kind: op.kind,
        dependencies: dependencyNames(of: op),
        conditions: op.spec.conditions.map(\.label), exclusivity: op.spec.exclusivity,
        work: op.kind == .group ? nil : op.spec.work.effectiveDuration))
    transition(op, to: .pending, .added(queue: queue.name))
    // ProcedureKit `Group.swift`: a child added to a group that is already cancelled is cancelled too.
    if let p = op.parent, ops[p].cancelled { markCancelled(op, errors: [], cause: .parent) }
    for dep in produced { try enqueue(dep, on: queue) }
    reportCycles(of: op)
    if detached {
      transition(op, to: .ready, .noDependencies)
      dispatch(op, on: queue)
    } else if op.state == .pending {
      considerPending(op, because: op.dependencies.isEmpty ? .noDependencies : nil)
    }
    settle()
  }

  // MARK: - Commands

  /// Applies a command from a key, a scenario action or the API. Every applied command is an event,
  /// emitted before its effects so cause and effect stand side by side.
  func perform(_ command: Command, source: CommandSource) -> CommandOutcome {
    let cause: CancelCause = source == .action ? .action : .command
    let record = {
      self.emit(
        .command(
          command: command.name, target: command.target, value: command.value, source: source))
    }
    switch command {
    case .cancel(let name):
      guard let op = operation(named: name) else { return .rejected(unknownOperation(name)) }
      if op.cancelled && op.state < .finishing { return .rejected("\(name) is already cancelled") }
      record()
      return cancel(op, cause: cause)
    case .cancelAll(let qn):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      // Foundation's cancelAllOperations: every operation of the queue, barriers included, in the
      // order they were added.
      let targets = q.members.ids.map { ops[$0] }.filter { !$0.cancelled && $0.state < .finishing }
        .sorted { $0.order < $1.order }
      guard !targets.isEmpty else { return .rejected("\(qn) has no operation left to cancel") }
      record()
      for op in targets { _ = cancel(op, cause: cause, settling: false) }
      settle()
      return .applied
    case .suspend(let qn):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      guard !q.suspended else { return .rejected("\(qn) is already suspended") }
      record()
      q.suspended = true
      emit(.queueSuspended(queue: qn))
      giveBackUnclaimedLocks(of: q)
      settle()
      return .applied
    case .resume(let qn):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      guard q.suspended else { return .rejected("\(qn) is not suspended") }
      record()
      q.suspended = false
      emit(.queueResumed(queue: qn))
      // ProcedureKit `ProcedureQueue.swift:259-271`: on resume the lock requests kept meanwhile are
      // made first, in order, then the condition evaluations kept meanwhile start.
      let requests = q.deferredLockRequests
      q.deferredLockRequests = []
      for (id, why) in requests where ops[id].state == .evaluatingConditions && !ops[id].cancelled {
        requestLocks(ops[id], then: why)
      }
      let waiting = q.awaitingEvaluation
      q.awaitingEvaluation = []
      for id in waiting where ops[id].state == .pending {
        considerPending(ops[id], because: .queueResumed(qn))
      }
      q.roomMaker = .resumed
      markDirty(q.id)
      settle()
      return .applied
    case .setMaxConcurrent(let qn, let value):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      if let v = value, v < 0 { return .rejected("maxConcurrent cannot be negative") }
      guard q.maxConcurrent != value else {
        return .rejected("\(qn) already allows \(value.map(String.init) ?? "unlimited")")
      }
      record()
      let raised = (value ?? Int.max) > q.limit
      q.maxConcurrent = value
      emit(.queueMaxConcurrent(queue: qn, value: value))
      if raised { q.roomMaker = .limitRaised(to: value) }
      markDirty(q.id)
      settle()
      return .applied
    }
  }
}
