/// What the state machine needs from a runtime: a clock, a way to run work and evaluate conditions,
/// and timers. Hosts must not call back into the core synchronously from these methods.
protocol EngineHost: AnyObject {
  var now: Double { get }
  func execute(_ op: OperationRecord)
  func evaluate(_ op: OperationRecord, condition index: Int)
  func cancelExecuting(_ op: OperationRecord)
  func schedule(after seconds: Double, _ timer: EngineTimer)
}

enum EngineTimer: Sendable {
  case timeout(op: Int)
  case completion(op: Int)
}

public enum EngineError: Error, Equatable, CustomStringConvertible, Sendable {
  case duplicateQueue(String)
  case duplicateOperation(String)
  case unknownQueue(String)
  case unknownOperation(String)
  case alreadyEnqueued(String)
  case dependencyTooLate(String, OperationState)

  public var description: String {
    switch self {
    case .duplicateQueue(let n): "a queue named '\(n)' already exists"
    case .duplicateOperation(let n): "an operation named '\(n)' already exists"
    case .unknownQueue(let n): "no queue named '\(n)'"
    case .unknownOperation(let n): "no operation named '\(n)'"
    case .alreadyEnqueued(let n): "operation '\(n)' was already added to a queue"
    case .dependencyTooLate(let n, let s):
      "operation '\(n)' is already \(s.rawValue): a dependency can only be added while it is pending"
    }
  }
}

/// The one state machine both runtimes share. Not thread-safe: the live runtime serialises access.
/// `@exclusivity(unchecked)` on its stored properties: the core is only ever used from one thread at a
/// time (the virtual runtime's, or under the live runtime's lock), and the dynamic exclusivity checks were
/// about a fifth of the instructions of an operation's lifecycle.
final class EngineCore {
  // unowned(unsafe): the runtime owns the core and outlives it; no retain/release per host call.
  unowned(unsafe) let host: any EngineHost
  @exclusivity(unchecked) var sink: (Event) -> Void = { _ in }
  @exclusivity(unchecked) private(set) var seq = 0
  @exclusivity(unchecked) private(set) var ops: [OperationRecord] = []
  @exclusivity(unchecked) private(set) var queues: [QueueRecord] = []
  @exclusivity(unchecked) private var opByName: [String: Int] = [:]
  @exclusivity(unchecked) private var queueByName: [String: Int] = [:]
  @exclusivity(unchecked) private var locks: [String: CategoryLock] = [:]
  @exclusivity(unchecked) private var reportedCycles = Set<[String]>()
  @exclusivity(unchecked) private var enqueueCounter = 0
  /// Scheduling work to do before control returns to the runtime, in Foundation's order.
  private enum Work {
    /// Re-run a queue's scheduling (an operation in it became ready, or it was resumed/widened).
    case schedule(queue: Int)
    /// A finished operation gives its slot back, then its queue schedules.
    case release(queue: Int)
    /// A barrier's dispatch work item is over: what was dispatched behind it begins.
    case openGate(queue: Int)
  }
  /// Foundation's barrier bookkeeping of one queue (indexed by queue id).
  private struct Barriers {
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
  @exclusivity(unchecked) private var barriers: [Barriers] = []
  @exclusivity(unchecked) private var work: [Work] = []
  @exclusivity(unchecked) private var workHead = 0
  @exclusivity(unchecked) private var dirtySet = Set<Int>()
  @exclusivity(unchecked) private var settling = false

  init(host: any EngineHost) { self.host = host }

  // MARK: - Lookup

  func operation(named name: String) -> OperationRecord? { opByName[name].map { ops[$0] } }
  func queue(named name: String) -> QueueRecord? { queueByName[name].map { queues[$0] } }

  private func emit(_ kind: EventKind) {
    seq += 1
    sink(Event(seq: seq, time: host.now, kind: kind))
  }

  // MARK: - Building

  @discardableResult
  func addQueue(_ spec: QueueSpec) throws -> QueueRecord {
    guard queueByName[spec.name] == nil else { throw EngineError.duplicateQueue(spec.name) }
    let q = QueueRecord(id: queues.count, spec: spec)
    queues.append(q)
    barriers.append(Barriers())
    queueByName[spec.name] = q.id
    emit(
      .queueAdded(queue: q.name, maxConcurrent: q.maxConcurrent, suspended: q.suspended, qos: q.qos)
    )
    return q
  }

  /// Creates an operation in `initialized`; it joins the board when it is added to a queue.
  @discardableResult
  func createOperation(_ spec: OperationSpec) throws -> OperationRecord {
    guard opByName[spec.name] == nil else { throw EngineError.duplicateOperation(spec.name) }
    let op = OperationRecord(id: ops.count, spec: spec)
    ops.append(op)
    opByName[spec.name] = op.id
    return op
  }

  /// Resolves the declared dependencies by name (they may be created in any order).
  func resolveDeclaredDependencies(_ op: OperationRecord) throws {
    for name in op.spec.dependencies {
      guard let dep = operation(named: name) else { throw EngineError.unknownOperation(name) }
      link(op, dependsOn: dep)
    }
  }

  private func link(_ op: OperationRecord, dependsOn dep: OperationRecord) {
    guard !op.dependencies.contains(dep.id) else { return }
    op.dependencies.append(dep.id)
    dep.dependents.append(op.id)
    if dep.state != .finished { op.unfinishedDependencies += 1 }
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
      detectCycle(through: op)
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
      let members = queue.members.sorted { ops[$0].order < ops[$1].order }
      for m in members { link(op, dependsOn: ops[m]) }
      if !detached { barriers[queue.id].waiting.append(op.id) }
    } else {
      for b in barriers[queue.id].waiting { link(op, dependsOn: ops[b]) }
    }

    // Condition-produced dependencies (a `login` for `loggedIn`) join with the operation and run after
    // its own dependencies, before its conditions are evaluated.
    var produced: [OperationRecord] = []
    for c in op.spec.conditions where !c.silent {
      guard let name = c.dependency, let dep = operation(named: name), !dep.isEnqueued else {
        continue
      }
      for d in op.dependencies where d != dep.id { link(dep, dependsOn: ops[d]) }
      link(op, dependsOn: dep)
      produced.append(dep)
    }

    op.queue = queue.id
    enqueueCounter += 1
    op.order = enqueueCounter
    // Foundation derives a priority from the operation's QoS only on a non-serial queue.
    op.priority =
      op.spec.priority ?? (queue.maxConcurrent == 1 ? .normal : op.spec.qos.derivedPriority)
    if !detached { queue.members.insert(op.id) }
    emit(
      .operationAdded(
        operation: op.name, queue: queue.name, priority: op.priority, qos: op.spec.qos,
        kind: op.kind,
        dependencies: op.dependencies.map { ops[$0].name }, conditions: conditionLabels(op),
        work: op.kind == .group ? nil : op.spec.work.effectiveDuration))
    transition(op, to: .pending)
    for dep in produced { try enqueue(dep, on: queue) }
    detectCycle(through: op)
    if detached {
      transition(op, to: .ready)
      dispatch(op, on: queue)
    } else if op.state == .pending {
      considerPending(op)
    }
    settle()
  }

  private func conditionLabels(_ op: OperationRecord) -> [String] {
    op.spec.conditions.map(\.label) + op.spec.exclusivity.map { "mutuallyExclusive(\($0))" }
  }

  private func transition(_ op: OperationRecord, to state: OperationState) {
    let from = op.state
    precondition(state > from, "states only move forward: \(op.name) \(from) → \(state)")
    op.state = state
    emit(.state(operation: op.name, from: from, to: state))
  }

  // MARK: - Cycles

  /// Looks for a dependency path from `op` back to itself among unfinished operations.
  private func detectCycle(through op: OperationRecord) {
    // A cycle through `op` needs an unfinished dependency of it (the common case skips the search).
    guard op.dependencies.contains(where: { ops[$0].state != .finished }) else { return }
    var path: [Int] = []
    var onPath = Set<Int>()
    var visited = Set<Int>()
    func dfs(_ id: Int) -> Bool {
      if onPath.contains(id) { return id == op.id }
      if visited.contains(id) { return false }
      visited.insert(id)
      onPath.insert(id)
      path.append(id)
      for d in ops[id].dependencies where ops[d].state != .finished {
        if d == op.id {
          return true
        }
        if dfs(d) { return true }
      }
      path.removeLast()
      onPath.remove(id)
      return false
    }
    guard dfs(op.id) else { return }
    let names = path.map { ops[$0].name }
    let key = names.sorted()
    guard !reportedCycles.contains(key) else { return }
    reportedCycles.insert(key)
    emit(.cycleDetected(operations: names))
  }

  // MARK: - Pending → evaluating → ready

  private func considerPending(_ op: OperationRecord) {
    guard op.state == .pending, let qid = op.queue else { return }
    if op.cancelled {
      makeReady(op)
      return
    }
    guard op.unfinishedDependencies == 0 else { return }
    if op.spec.conditions.isEmpty {
      makeReady(op)
    } else if queues[qid].suspended {
      // Condition evaluation waits for the queue to resume.
      if !queues[qid].awaitingEvaluation.contains(op.id) {
        queues[qid].awaitingEvaluation.append(op.id)
      }
    } else {
      startEvaluation(op)
    }
  }

  private func startEvaluation(_ op: OperationRecord) {
    transition(op, to: .evaluatingConditions)
    op.conditionsPending = op.spec.conditions.count
    for (i, c) in op.spec.conditions.enumerated() {
      emit(.conditionStarted(operation: op.name, condition: c.label))
      host.evaluate(op, condition: i)
    }
  }

  /// A condition's evaluation is over. `result` is the scripted/closure result before negation.
  func conditionEvaluated(
    _ op: OperationRecord, index: Int, result: ConditionResult, error: String?
  ) {
    guard op.state == .evaluatingConditions, !op.cancelled else { return }
    let c = op.spec.conditions[index]
    var outcome = result
    var message = error
    switch c.check {
    case .scripted: break
    case .noFailedDependencies:
      let failed = op.dependencies.map { ops[$0] }.filter { !$0.errors.isEmpty && !$0.cancelled }
      outcome = failed.isEmpty ? .satisfied : .failed
      message =
        failed.isEmpty ? nil : "dependency \(failed.map(\.name).joined(separator: ", ")) failed"
    case .noCancelledDependencies:
      let cancelled = op.dependencies.map { ops[$0] }.filter(\.cancelled)
      outcome = cancelled.isEmpty ? .satisfied : .failed
      message =
        cancelled.isEmpty
        ? nil : "dependency \(cancelled.map(\.name).joined(separator: ", ")) was cancelled"
    }
    if c.negated {
      outcome = outcome == .satisfied ? .failed : .satisfied
      message = outcome == .failed ? "\(c.name) was satisfied" : nil
    }
    if outcome == .failed { message = message ?? "condition \(c.name) failed" }
    emit(.conditionResult(operation: op.name, condition: c.label, result: outcome, error: message))
    if outcome == .failed, let m = message { op.conditionFailures.append(m) }
    op.conditionsPending -= 1
    guard op.conditionsPending == 0 else { return }
    if op.conditionFailures.isEmpty {
      makeReady(op)
    } else {
      markCancelled(op, errors: op.conditionFailures, cause: .condition)
      makeReady(op)
    }
    settle()
  }

  private func makeReady(_ op: OperationRecord) {
    transition(op, to: .ready)
    guard let qid = op.queue else { return }
    let q = queues[qid]
    if op.spec.barrier {
      barriers[qid].ready.insert(op: op.id, order: op.order)
    } else {
      q.ready[4 - priorityIndex(op.priority)].insert(op: op.id, order: op.order)
    }
    markDirty(q.id)
  }

  private func priorityIndex(_ p: QueuePriority) -> Int {
    QueuePriority.allCases.firstIndex(of: p)!
  }

  // MARK: - Starting

  private func markDirty(_ qid: Int) {
    if dirtySet.insert(qid).inserted { work.append(.schedule(queue: qid)) }
  }

  /// Runs queue scheduling until nothing more can start. Reentrancy-safe: nested calls return at once.
  func settle() {
    guard !settling else { return }
    settling = true
    defer { settling = false }
    while workHead < work.count {
      let item = work[workHead]
      workHead += 1
      let q: QueueRecord
      switch item {
      case .schedule(let qid):
        dirtySet.remove(qid)
        q = queues[qid]
      case .release(let qid):
        q = queues[qid]
        q.executing -= 1
      case .openGate(let qid):
        barriers[qid].gate = nil
        let held = barriers[qid].held
        barriers[qid].held = []
        for id in held { dispatch(ops[id], on: queues[qid]) }
        continue
      }
      for op in schedule(q) { dispatch(op, on: q) }
    }
    work.removeAll(keepingCapacity: true)
    workHead = 0
  }

  /// Foundation's `_schedule`: barriers, then priorities from veryHigh to veryLow, FIFO within each,
  /// until no slot is left.
  private func schedule(_ q: QueueRecord) -> [OperationRecord] {
    guard !q.suspended else { return [] }
    var slots = q.limit == Int.max ? Int.max : q.limit - q.executing
    var started: [OperationRecord] = []
    while slots > 0, !barriers[q.id].ready.isEmpty {
      let i = barriers[q.id].ready.indices.lowerBound
      let op = ops[barriers[q.id].ready[i]]
      barriers[q.id].ready.remove(at: i)
      barriers[q.id].waiting.removeAll { $0 == op.id }
      op.tookSlot = true
      q.executing += 1
      if slots != Int.max { slots -= 1 }
      started.append(op)
    }
    for p in 0..<5 where slots > 0 {
      var skipped = 0
      while slots > 0 {
        let i = q.ready[p].indices.lowerBound + skipped
        guard i < q.ready[p].indices.upperBound else { break }
        let op = ops[q.ready[p][i]]
        if !op.cancelled && !op.spec.exclusivity.isEmpty && !acquireLocks(op) {
          skipped += 1
          continue
        }
        q.ready[p].remove(at: i)
        op.tookSlot = true
        q.executing += 1
        if slots != Int.max { slots -= 1 }
        started.append(op)
      }
    }
    return started
  }

  /// The queue hands a dispatched operation to its dispatch queue: it begins at once, unless a barrier
  /// is executing there, in which case it keeps its slot and begins once the barrier is over.
  private func dispatch(_ op: OperationRecord, on q: QueueRecord) {
    if barriers[q.id].gate != nil {
      barriers[q.id].held.append(op.id)
    } else {
      begin(op)
    }
  }

  private func begin(_ op: OperationRecord) {
    op.started = true
    if op.cancelled {
      // Foundation: a cancelled operation is started by its queue, skips main() and finishes.
      finish(op)
      return
    }
    if op.spec.barrier, let qid = op.queue { barriers[qid].gate = op.id }
    transition(op, to: .executing)
    emit(.didStart(operation: op.name))
    if let t = op.spec.timeout { host.schedule(after: t, .timeout(op: op.id)) }
    if op.kind == .group { startGroup(op) }
    host.execute(op)
  }

  // MARK: - Exclusivity

  private func acquireLocks(_ op: OperationRecord) -> Bool {
    let free = op.spec.exclusivity.allSatisfy { cat in
      let l = locks[cat, default: CategoryLock()]
      return l.holder == nil && (l.waiters.first ?? op.id) == op.id
    }
    if free {
      for cat in op.spec.exclusivity {
        locks[cat, default: CategoryLock()].holder = op.id
        locks[cat]!.waiters.removeAll { $0 == op.id }
        emit(.exclusivityAcquired(operation: op.name, category: cat))
      }
      op.holdsLocks = true
      op.waitingForLocks = false
      return true
    }
    if !op.waitingForLocks {
      op.waitingForLocks = true
      for cat in op.spec.exclusivity {
        var l = locks[cat, default: CategoryLock()]
        let blocker = l.holder ?? l.waiters.first
        if !l.waiters.contains(op.id) { l.waiters.append(op.id) }
        locks[cat] = l
        if let b = blocker, b != op.id {
          emit(.exclusivityWaiting(operation: op.name, category: cat, holder: ops[b].name))
        }
      }
    }
    return false
  }

  private func releaseLocks(_ op: OperationRecord) {
    if op.waitingForLocks {
      for cat in op.spec.exclusivity { locks[cat]?.waiters.removeAll { $0 == op.id } }
      op.waitingForLocks = false
      wakeWaiters(of: op.spec.exclusivity)
    }
    guard op.holdsLocks else { return }
    op.holdsLocks = false
    for cat in op.spec.exclusivity {
      locks[cat]?.holder = nil
      emit(.exclusivityReleased(operation: op.name, category: cat))
    }
    wakeWaiters(of: op.spec.exclusivity)
  }

  private func wakeWaiters(of categories: [String]) {
    for cat in categories {
      for w in locks[cat]?.waiters ?? [] { if let q = ops[w].queue { markDirty(q) } }
    }
  }

  // MARK: - Groups

  private func startGroup(_ group: OperationRecord) {
    let inner = try! addQueue(
      QueueSpec(name: "\(group.name).children", qos: queues[group.queue!].qos))
    group.innerQueue = inner.id
    for name in group.spec.children {
      guard let child = operation(named: name), !child.isEnqueued else { continue }
      child.parent = group.id
      group.outstandingChildren += 1
      try? enqueue(child, on: inner)
    }
    if group.outstandingChildren == 0 { finish(group) }
  }

  // MARK: - Production

  /// An executing operation adds a new operation to its queue (a group's children go to its inner queue).
  func produce(_ op: OperationRecord, _ name: String) {
    guard op.state == .executing, let produced = operation(named: name), !produced.isEnqueued else {
      return
    }
    emit(.didProduce(operation: op.name, produced: name))
    let target: QueueRecord
    if op.kind == .group, let inner = op.innerQueue {
      produced.parent = op.id
      op.outstandingChildren += 1
      target = queues[inner]
    } else {
      if let p = op.parent {
        produced.parent = p
        ops[p].outstandingChildren += 1
      }
      target = queues[op.queue!]
    }
    try? enqueue(produced, on: target)
    settle()
  }

  // MARK: - Finishing

  /// The work of an executing operation is over (normally, failed, or early through cancellation).
  func workFinished(_ op: OperationRecord, errors: [String]) {
    guard op.state == .executing, op.kind != .group else { return }
    op.errors += errors
    finish(op)
    settle()
  }

  private func finish(_ op: OperationRecord) {
    if op.state == .ready && !op.started { return }
    transition(op, to: .finishing)
    emit(.willFinish(operation: op.name, errors: op.errors, cancelled: op.cancelled))
    transition(op, to: .finished)
    emit(.didFinish(operation: op.name, errors: op.errors, cancelled: op.cancelled))
    releaseLocks(op)
    // Foundation's order: dependents become ready and their queues schedule while the finished operation
    // still holds its slot; then the completion block is dispatched; then its queue takes the slot back
    // and schedules.
    for d in op.dependents {
      let dep = ops[d]
      dep.unfinishedDependencies -= 1
      if dep.state == .pending { considerPending(dep) }
    }
    if op.spec.completion { host.schedule(after: 0, .completion(op: op.id)) }
    if let qid = op.queue {
      queues[qid].members.remove(op.id)
      if op.tookSlot { work.append(.release(queue: qid)) } else { markDirty(qid) }
      // The barrier's dispatch work item ends only after all that finishing.
      if barriers[qid].gate == op.id { work.append(.openGate(queue: qid)) }
    }
    if let p = op.parent {
      let group = ops[p]
      group.childErrors += op.errors.map { "\(op.name): \($0)" }
      group.outstandingChildren -= 1
      if group.outstandingChildren == 0 && group.state == .executing {
        group.errors += group.childErrors
        finish(group)
      }
    }
  }

  func fire(_ timer: EngineTimer) {
    switch timer {
    case .timeout(let id):
      let op = ops[id]
      guard op.state == .executing, !op.cancelled else { return }
      _ = cancel(
        op, errors: ["timed out after \(formatSeconds(op.spec.timeout ?? 0))s"], cause: .timeout)
    case .completion(let id):
      emit(.completion(operation: ops[id].name))
    }
    settle()
  }

  // MARK: - Cancellation

  private func markCancelled(_ op: OperationRecord, errors: [String], cause: CancelCause) {
    op.cancelled = true
    op.errors += errors
    emit(.cancelled(operation: op.name, errors: errors, cause: cause))
  }

  /// Cancels one operation. Returns a reason when nothing could change. Several cancelled together
  /// (`settling: false`, then one `settle()`) are all flagged before any of them is started: in
  /// Foundation the queue starts them on other threads, after the cancelling loop has moved on.
  func cancel(
    _ op: OperationRecord, errors: [String] = [], cause: CancelCause, settling: Bool = true
  ) -> CommandOutcome {
    if op.state >= .finishing {
      emit(.cancelTooLate(operation: op.name))
      return .rejected("\(op.name) has already finished: cancelling it now is too late")
    }
    if op.cancelled { return .rejected("\(op.name) is already cancelled") }
    markCancelled(op, errors: errors, cause: cause)
    switch op.state {
    case .initialized:
      break  // Outside any queue it stays unfinished (Foundation's test_CancelOutOfQueue).
    case .pending, .evaluatingConditions:
      // Foundation: cancelling zeroes the unfinished dependencies, so the operation is ready at once.
      if let q = op.queue { queues[q].awaitingEvaluation.removeAll { $0 == op.id } }
      makeReady(op)
    case .ready:
      if op.waitingForLocks {
        for cat in op.spec.exclusivity { locks[cat]?.waiters.removeAll { $0 == op.id } }
        op.waitingForLocks = false
        wakeWaiters(of: op.spec.exclusivity)
      }
      if let q = op.queue { markDirty(q) }
    case .executing:
      if op.kind == .group {
        let children = ops.filter { $0.parent == op.id && $0.state < .finishing }
        for child in children { _ = cancel(child, cause: .parent, settling: false) }
      } else {
        switch op.spec.cancellation {
        case .immediate: finish(op)
        case .cooperative: host.cancelExecuting(op)
        case .ignored: break
        }
      }
    case .finishing, .finished:
      break
    }
    if settling { settle() }
    return .applied
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
      guard let op = operation(named: name) else {
        return .rejected("no operation named '\(name)'")
      }
      if op.cancelled && op.state < .finishing { return .rejected("\(name) is already cancelled") }
      record()
      return cancel(op, cause: cause)
    case .cancelAll(let qn):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      // Foundation's cancelAllOperations: every operation of the queue, barriers included, in the
      // order they were added.
      let targets = q.members.map { ops[$0] }.filter { !$0.cancelled && $0.state < .finishing }
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
      return .applied
    case .resume(let qn):
      guard let q = queue(named: qn) else { return .rejected("no queue named '\(qn)'") }
      guard q.suspended else { return .rejected("\(qn) is not suspended") }
      record()
      q.suspended = false
      emit(.queueResumed(queue: qn))
      let waiting = q.awaitingEvaluation
      q.awaitingEvaluation = []
      for id in waiting where ops[id].state == .pending { considerPending(ops[id]) }
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
      q.maxConcurrent = value
      emit(.queueMaxConcurrent(queue: qn, value: value))
      markDirty(q.id)
      settle()
      return .applied
    }
  }
}
