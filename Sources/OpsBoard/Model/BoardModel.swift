import OpsEngine

/// Everything the board shows, as a pure fold of engine events: `apply` each event in order. A value
/// type, so a copy taken at any point is that moment exactly (checkpoints for time travel). Each event
/// costs O(1) dictionary work, plus O(edges) of the operation it touches.
public struct BoardModel: Sendable, Equatable {
  /// How many of the newest log entries the model keeps for the log pane; the full log is kept by
  /// whoever folds (it is append-only, so a model at event n shows its first n entries).
  public static let recentLogCapacity = 256

  public private(set) var queues: [QueueRow] = []
  public private(set) var operations: [OperationRow] = []
  public private(set) var cycles: [[String]] = []
  /// The virtual clock: the last event's time, or later when the clock moved without events.
  public private(set) var now: Double = 0
  /// The sequence number of the last event applied (0 before any).
  public private(set) var lastSeq = 0
  /// Changes with every event applied: caches keyed on it are exact.
  public private(set) var version = 0
  /// Changes when operations or dependency edges are added (the graph layout depends only on these).
  public private(set) var structureVersion = 0
  /// Longest names so far, so column widths never need a scan.
  public private(set) var longestOperationName = 0
  public private(set) var longestQueueName = 0
  /// Operations added to a queue that have not finished.
  public private(set) var unfinishedCount = 0

  private var queueIndex: [String: Int] = [:]
  private var operationIndex: [String: Int] = [:]
  /// Dependents that named an operation before it was added to any queue.
  private var dependentsOfUnknown: [String: [String]] = [:]
  /// Set by `apply` when the event revised the entry before it (a failure is only known at willFinish,
  /// one event after executing → finishing): whoever keeps the full log replaces its last entry.
  public private(set) var revisedEntry: LogEntry?
  private var recent: [LogEntry] = []
  private var producer: ProducerNote?
  /// Members of reported cycles, so one added after the report is marked too.
  private var cycleMembers: Set<String> = []
  private var recentHead = 0

  public init() {}

  // MARK: - Lookup

  public func queue(named name: String) -> QueueRow? { queueIndex[name].map { queues[$0] } }
  public func operation(named name: String) -> OperationRow? {
    operationIndex[name].map { operations[$0] }
  }
  public func index(ofOperation name: String) -> Int? { operationIndex[name] }
  public func index(ofQueue name: String) -> Int? { queueIndex[name] }

  /// State of each dependency (nil: not added to a queue yet).
  public func dependencyStates(of name: String) -> [(name: String, state: OperationState?)] {
    (operation(named: name)?.dependencies ?? []).map { ($0, operation(named: $0)?.state) }
  }
  public func dependentStates(of name: String) -> [(name: String, state: OperationState?)] {
    (operation(named: name)?.dependents ?? []).map { ($0, operation(named: $0)?.state) }
  }
  /// (finished, total) dependencies: the `✓`/`…` marks of the table.
  public func dependencyProgress(of row: OperationRow) -> (finished: Int, total: Int) {
    (row.finishedDependencies, row.dependencies.count)
  }

  /// The newest log entries, oldest first (at most `recentLogCapacity`).
  public var recentLog: [LogEntry] {
    recent.count < Self.recentLogCapacity
      ? recent : Array(recent[recentHead...] + recent[..<recentHead])
  }
  /// The `n` newest entries that say something new, oldest first: observer bookkeeping (didStart,
  /// willFinish, didFinish, finishing → finished) is left to the full log. Looks back at most
  /// `recentLogCapacity` entries.
  public func newestTellingLog(_ n: Int) -> [LogEntry] {
    var out: [LogEntry] = []
    var back = 1
    while out.count < n && back <= recent.count {
      let e = recent[(recentHead - back + recent.count * 2) % recent.count]
      if !e.isBookkeeping { out.append(e) }
      back += 1
    }
    return out.reversed()
  }

  /// The `n` newest log entries, oldest first, without copying the rest.
  public func newestLog(_ n: Int) -> [LogEntry] {
    let count = min(max(0, n), recent.count)
    return (0..<count).map { i in
      let back = count - i  // 1 is the newest
      return recent[(recentHead - back + recent.count * 2) % recent.count]
    }
  }

  // MARK: - Folding

  /// Moves the clock without an event (time passes between events while playing).
  public mutating func advanceClock(to time: Double) {
    if time > now { now = time }
  }

  /// Folds one event and returns its log entry.
  @discardableResult
  public mutating func apply(_ event: Event) -> LogEntry {
    lastSeq = event.seq
    version += 1
    revisedEntry = nil
    if event.time > now { now = event.time }
    var cause: LogCause?
    switch event.kind {
    case .queueAdded(let q, let limit, let suspended, let qos):
      if queueIndex[q] == nil {
        queueIndex[q] = queues.count
        longestQueueName = max(longestQueueName, q.count)
        queues.append(QueueRow(name: q, qos: qos, maxConcurrent: limit, suspended: suspended))
      }
    case .queueSuspended(let q):
      updateQueue(q) { $0.suspended = true }
    case .queueResumed(let q):
      updateQueue(q) {
        $0.suspended = false
        $0.capacity = CapacityNote(seq: event.seq, time: event.time, cause: .queueResumed(q))
      }
    case .queueMaxConcurrent(let q, let value):
      updateQueue(q) {
        let old = $0.maxConcurrent
        let raised = value.map { v in old.map { v > $0 } ?? false } ?? true
        $0.maxConcurrent = value
        if raised {
          $0.capacity = CapacityNote(
            seq: event.seq, time: event.time, cause: .limitRaised(queue: q, to: value))
        }
      }
    case .operationAdded(let o, let q, let p, let qos, let kind, let deps, let conds, let work):
      addOperation(
        o, queue: q, priority: p, qos: qos, kind: kind, deps: deps, conds: conds, work: work,
        at: event.time)
    case .dependencyAdded(let o, let d):
      guard let i = operationIndex[o] else { break }
      structureVersion += 1
      operations[i].dependencies.append(d)
      if let j = operationIndex[d] {
        operations[j].dependents.append(o)
        if operations[j].state == .finished { operations[i].finishedDependencies += 1 }
      } else {
        dependentsOfUnknown[d, default: []].append(o)
      }
    case .state(let o, let from, let to):
      cause = transition(o, from: from, to: to, event: event)
    case .conditionStarted(let o, let c):
      updateCondition(o, c) {
        $0.status = .evaluating
        $0.evaluationStarted = event.time
      }
    case .conditionResult(let o, let c, let result, let error):
      updateCondition(o, c) {
        $0.status = result == .satisfied ? .satisfied : .failed
        $0.error = error
        $0.evaluationEnded = event.time
      }
    case .exclusivityWaiting(let o, let category, let holder):
      if let i = operationIndex[o] { operations[i].waitedForLock = true }
      updateCondition(o, Self.exclusivityLabel(category)) {
        $0.status = .waitingForExclusivity
        $0.holder = holder
      }
    case .exclusivityAcquired(let o, let category):
      updateCondition(o, Self.exclusivityLabel(category)) {
        $0.status = .holdsLock
        $0.holder = nil
      }
    case .exclusivityReleased(let o, let category):
      updateCondition(o, Self.exclusivityLabel(category)) { $0.status = .released }
    case .cancelled(let o, let errors, let why):
      guard let i = operationIndex[o] else { break }
      if !operations[i].cancelled {
        updateQueue(operations[i].queue) { $0.cancelled += 1 }
      }
      operations[i].cancelled = true
      if operations[i].cancelledAt == nil { operations[i].cancelledAt = event.time }
      operations[i].cancelCause = why
      operations[i].errors += errors
    case .didFinish(let o, let errors, _):
      if let i = operationIndex[o] {
        operations[i].errors = errors
        operations[i].observers.append(ObserverCall(name: "didFinish", time: event.time))
      }
    case .didProduce(let o, let produced):
      // The produced operation is added right after this event; remember who made it.
      producer = ProducerNote(o, produced)
    case .cycleDetected(let ops):
      cycles.append(ops)
      cycleMembers.formUnion(ops)
      for o in ops { if let i = operationIndex[o] { operations[i].inCycle = true } }
    case .willFinish(let o, let errors, let cancelled):
      noteObserver(o, "willFinish", at: event.time)
      if !cancelled { reviseFinishCause(o, errors: errors) }
    case .didStart(let o):
      noteObserver(o, "didStart", at: event.time)
    case .completion(let o):
      noteObserver(o, "completion", at: event.time)
    case .cancelTooLate, .command:
      break
    }
    let entry = LogEntry(event: event, cause: cause)
    appendRecent(entry)
    return entry
  }

  /// The work's errors arrive with willFinish, just after executing → finishing: name them there.
  private mutating func reviseFinishCause(_ o: String, errors: [String]) {
    guard let error = errors.first, !recent.isEmpty else { return }
    let last = (recentHead - 1 + recent.count) % recent.count
    let previous = recent[last]
    guard case .state(o, .executing, .finishing) = previous.event.kind, previous.cause == .workDone
    else {
      return
    }
    let revised = LogEntry(event: previous.event, cause: .workFailed(error))
    recent[last] = revised
    revisedEntry = revised
  }

  private mutating func noteObserver(_ o: String, _ name: String, at time: Double) {
    if let i = operationIndex[o] {
      operations[i].observers.append(ObserverCall(name: name, time: time))
    }
  }

  private mutating func appendRecent(_ entry: LogEntry) {
    if recent.count < Self.recentLogCapacity {
      recent.append(entry)
    } else {
      recent[recentHead] = entry
      recentHead = (recentHead + 1) % Self.recentLogCapacity
    }
  }

  private mutating func updateQueue(_ name: String, _ change: (inout QueueRow) -> Void) {
    guard let i = queueIndex[name] else { return }
    change(&queues[i])
  }

  private mutating func updateCondition(
    _ o: String, _ label: String, _ change: (inout ConditionRow) -> Void
  ) {
    guard let i = operationIndex[o],
      let c = operations[i].conditions.firstIndex(where: { $0.name == label })
    else { return }
    change(&operations[i].conditions[c])
  }

  static func exclusivityLabel(_ category: String) -> String { "mutuallyExclusive(\(category))" }

  static func exclusivityCategory(_ label: String) -> String? {
    let prefix = "mutuallyExclusive("
    guard label.hasPrefix(prefix), label.hasSuffix(")") else { return nil }
    return String(label.dropFirst(prefix.count).dropLast())
  }

  private mutating func addOperation(
    _ o: String, queue q: String, priority: QueuePriority, qos: QualityOfService,
    kind: OperationKind, deps: [String], conds: [String], work: Double?, at time: Double
  ) {
    guard operationIndex[o] == nil else { return }
    structureVersion += 1
    let i = operations.count
    var row = OperationRow(
      name: o, index: i, queue: q, priority: priority, qos: qos, kind: kind, work: work,
      enteredState: time, dependencies: deps,
      conditions: conds.map {
        ConditionRow(name: $0, category: Self.exclusivityCategory($0))
      },
      history: [StateVisit(state: .initialized, time: time)])
    row.dependents = dependentsOfUnknown.removeValue(forKey: o) ?? []
    row.inCycle = cycleMembers.contains(o)
    if let p = producer, p.produced == o {
      row.producedBy = p.producer
      producer = nil
    }
    operations.append(row)
    operationIndex[o] = i
    unfinishedCount += 1
    longestOperationName = max(longestOperationName, o.count)
    updateQueue(q) { $0.counts[.initialized] += 1 }
    for d in deps {
      if let j = operationIndex[d] {
        operations[j].dependents.append(o)
        if operations[j].state == .finished { operations[i].finishedDependencies += 1 }
      } else {
        dependentsOfUnknown[d, default: []].append(o)
      }
    }
  }

  private mutating func transition(
    _ o: String, from: OperationState, to: OperationState, event: Event
  ) -> LogCause? {
    guard let i = operationIndex[o] else { return nil }
    let cause = self.cause(of: operations[i], from: from, to: to, event: event)
    let queue = operations[i].queue
    updateQueue(queue) {
      $0.counts[from] -= 1
      $0.counts[to] += 1
    }
    var row = operations[i]
    row.state = to
    row.enteredState = event.time
    row.lastTransition = Transition(from: from, to: to, time: event.time)
    row.history.append(StateVisit(state: to, time: event.time))
    switch to {
    case .ready: row.readySeq = event.seq
    case .executing: row.startedAt = event.time
    case .finished:
      row.finishedAt = event.time
      row.finishSeq = event.seq
      unfinishedCount -= 1
      updateQueue(queue) {
        $0.capacity = CapacityNote(seq: event.seq, time: event.time, cause: .slotFreed(by: o))
      }
    default: break
    }
    operations[i] = row
    if to == .finished {
      for d in row.dependents {
        if let j = operationIndex[d] { operations[j].finishedDependencies += 1 }
      }
    }
    return cause
  }

  /// The cause of a transition, from what the model knew just before it.
  private func cause(
    of op: OperationRow, from: OperationState, to: OperationState, event: Event
  ) -> LogCause? {
    switch (from, to) {
    case (.initialized, .pending):
      return .added(queue: op.queue)
    case (.pending, _):
      if op.cancelled { return .cancelled }
      // The dependency that finished last is the one that released it.
      var last: (name: String, seq: Int)?
      for d in op.dependencies {
        if let dep = operation(named: d), let s = dep.finishSeq, s > (last?.seq ?? 0) {
          last = (d, s)
        }
      }
      // Conditions wait for a suspended queue: then the resume released it.
      if let c = queue(named: op.queue)?.capacity, case .queueResumed = c.cause,
        c.time == event.time, c.seq > (last?.seq ?? 0)
      {
        return c.cause
      }
      if let l = last { return .dependencyFinished(l.name, of: op.dependencies.count) }
      return .noDependencies
    case (.evaluatingConditions, _):
      if let failed = op.conditions.first(where: { $0.status == .failed }) {
        return .conditionFailed(failed.name)
      }
      return op.cancelled ? .cancelled : .conditionsSatisfied
    case (.ready, .executing):
      if op.waitedForLock, let lock = op.conditions.first(where: { $0.status == .holdsLock }),
        let category = lock.category
      {
        return .lockAcquired(category: category)
      }
      guard let q = queue(named: op.queue) else { return nil }
      if let c = q.capacity, c.time == event.time, c.seq > (op.readySeq ?? 0) {
        return c.cause
      }
      return .freeSlot(queue: q.name, executing: q.executing + 1, limit: q.maxConcurrent)
    case (.ready, .finishing):
      return .skipsMain
    case (.executing, .finishing):
      if op.kind == .group { return .childrenFinished }
      if op.cancelled, let why = op.cancelCause {
        if let w = op.work, let s = op.startedAt, event.time - s >= w - 1e-9 {
          return .ranDespiteCancel
        }
        return .cancelledWhileExecuting(why)
      }
      if let e = op.errors.first { return .workFailed(e) }
      return .workDone
    default:
      return nil
    }
  }

  public static func == (a: BoardModel, b: BoardModel) -> Bool {
    a.lastSeq == b.lastSeq && a.now == b.now && a.queues == b.queues
      && a.operations == b.operations && a.cycles == b.cycles && a.recentLog == b.recentLog
  }
}

private struct ProducerNote: Sendable, Equatable {
  let producer: String
  let produced: String
  init(_ producer: String, _ produced: String) {
    self.producer = producer
    self.produced = produced
  }
}
