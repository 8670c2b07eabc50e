import OpsEvents

/// pending → evaluatingConditions → (exclusivity lock) → ready. An operation with conditions or
/// exclusivity categories (a `MutuallyExclusive` condition in ProcedureKit) goes through
/// `evaluatingConditions`, and waits there for its lock; one with neither, or cancelled, goes
/// pending → ready.
///
/// References: ProcedureKit `Sources/ProcedureKit/Procedure.swift` (conditions are evaluated once the
/// procedure's dependencies have finished; a failure cancels it with the condition's error),
/// `Condition.swift` (several conditions: the first failure decides; produced dependencies are
/// dependencies of the evaluation), `MutualExclusion.swift` (locks requested after the conditions pass,
/// granted FIFO per category). docs/SEMANTICS.md lists each rule with its line and test.
extension EngineCore {
  /// An operation in `pending` whose situation changed: cancelled, or maybe no longer waiting for
  /// dependencies. `because` names what released it (nil: nothing in particular).
  func considerPending(_ op: OperationRecord, because: StateCause?) {
    guard op.state == .pending, let qid = op.queue else { return }
    if op.cancelled {
      makeReady(op, .cancelled(op.cancelCause ?? .command))
      return
    }
    let why = because ?? .noDependencies
    // ProcedureKit: `MutuallyExclusive` is a condition, so a procedure with only exclusivity still
    // has its conditions evaluated (`Procedure.swift:576-596`), and the lock is requested within
    // that evaluation (1666-1685). Only an operation with neither skips `evaluatingConditions`.
    if op.spec.conditions.isEmpty && op.spec.exclusivity.isEmpty {
      guard op.unfinishedDependencies == 0 else { return }
      makeReady(op, why)
      return
    }
    // The evaluation depends on the procedure's direct dependencies only (`Procedure.swift:585-588`):
    // a barrier reaches the procedure through Foundation's internal `_addDependency` (SCF 1216-1221),
    // which bypasses ProcedureKit's `addDependency` override (1732-1735), so it does not delay it.
    guard op.unfinishedDependencies == op.barrierDependencies.count else { return }
    if queues[qid].suspended {
      // Condition evaluation waits for the queue to resume.
      if !queues[qid].awaitingEvaluation.contains(op.id) {
        queues[qid].awaitingEvaluation.append(op.id)
      }
    } else {
      startEvaluation(op, why)
    }
  }

  private func startEvaluation(_ op: OperationRecord, _ why: StateCause) {
    transition(op, to: .evaluatingConditions, why)
    op.conditionsPending = op.spec.conditions.count
    if op.spec.conditions.isEmpty {
      // Its only conditions are `MutuallyExclusive`, always satisfied: the evaluation asks for the
      // lock at once and ends when it is granted.
      let cat = op.spec.exclusivity[0]
      requestLocks(op, then: .lockAcquired(category: cat))
      return
    }
    for (i, c) in op.spec.conditions.enumerated() {
      if let d = op.producedDependencies[i], ops[d].state != .finished {
        // Only this condition waits for what it produced (`login` for `loggedIn`).
        op.conditionsAwaitingDependency.append(i)
        emit(.conditionWaiting(operation: op.name, condition: c.label, dependency: ops[d].name))
      } else {
        emit(.conditionStarted(operation: op.name, condition: c.label))
        host.evaluate(op, condition: i)
      }
    }
  }

  /// A condition's produced dependency finished: its condition is evaluated now.
  func producedDependencyFinished(_ dep: OperationRecord) {
    guard let (id, i) = dep.producedFor else { return }
    let op = ops[id]
    guard op.state == .evaluatingConditions, !op.cancelled,
      let k = op.conditionsAwaitingDependency.firstIndex(of: i)
    else { return }
    op.conditionsAwaitingDependency.remove(at: k)
    emit(.conditionStarted(operation: op.name, condition: op.spec.conditions[i].label))
    host.evaluate(op, condition: i)
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
      // ProcedureKit `NoFailedDependenciesCondition.swift:41-58`: a dependency with errors (cancelled
      // or not, or cancelled by its own failed condition) fails it first; otherwise a cancelled one.
      // Only direct dependencies (N9): an implicit barrier is not among PK's `dependencies`.
      let deps = op.dependencies.map { ops[$0] }.filter { isDirect($0, of: op) }
      let failed = deps.filter { !$0.errors.isEmpty }
      let cancelled = deps.filter(\.cancelled)
      outcome = failed.isEmpty && cancelled.isEmpty ? .satisfied : .failed
      message =
        !failed.isEmpty
        ? "dependency \(failed.map(\.name).joined(separator: ", ")) failed"
        : cancelled.isEmpty
          ? nil : "dependency \(cancelled.map(\.name).joined(separator: ", ")) was cancelled"
    case .noCancelledDependencies:
      let cancelled = op.dependencies.map { ops[$0] }.filter {
        isDirect($0, of: op) && $0.cancelled
      }
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
    if outcome == .failed {
      // The first failure decides at once; outstanding evaluations are abandoned.
      markCancelled(op, errors: [message ?? c.name], cause: .condition)
      abandonProducedDependencies(of: op)
      makeReady(op, .conditionFailed(c.label))
      settle()
      return
    }
    op.conditionsPending -= 1
    guard op.conditionsPending == 0 else { return }
    requestLocks(op, then: .conditionsSatisfied)
    settle()
  }

  /// The evaluation is over (conditions passed, locks held): ready, unless a barrier it depends on
  /// has not finished; then it stays in `evaluatingConditions`, holding its locks, until it has.
  func evaluationEnded(_ op: OperationRecord, _ cause: StateCause) {
    if !op.cancelled && !op.barrierDependencies.isEmpty {
      op.evaluationOver = true
      return
    }
    makeReady(op, cause)
  }

  /// A barrier `op` depended on (implicitly) finished.
  func barrierFinished(_ barrier: OperationRecord, dependent op: OperationRecord) {
    guard let k = op.barrierDependencies.firstIndex(of: barrier.id) else { return }
    op.barrierDependencies.remove(at: k)
    guard op.barrierDependencies.isEmpty, op.state == .evaluatingConditions, op.evaluationOver
    else { return }
    op.evaluationOver = false
    makeReady(op, .dependencyFinished(barrier.name, of: op.dependencies.count))
  }

  /// A dependency the operation declared, not one Foundation added for a barrier.
  private func isDirect(_ dep: OperationRecord, of op: OperationRecord) -> Bool {
    !dep.spec.barrier || op.spec.dependencies.contains(dep.name)
  }

  /// The outcome is known (or the operation was cancelled): produced dependencies still to run are
  /// cancelled (ProcedureKit `Condition.swift`).
  func abandonProducedDependencies(of op: OperationRecord) {
    op.conditionsAwaitingDependency = []
    for (_, d) in op.producedDependencies.sorted(by: { $0.key < $1.key }) {
      let dep = ops[d]
      if !dep.cancelled && dep.state < .finishing {
        _ = cancel(dep, cause: .condition, settling: false)
      }
    }
  }

  func makeReady(_ op: OperationRecord, _ cause: StateCause) {
    transition(op, to: .ready, cause)
    guard let qid = op.queue else { return }
    let q = queues[qid]
    if op.spec.barrier {
      barriers[qid].ready.insert(op: op.id, order: op.order)
    } else {
      q.ready[4 - op.priority.level].insert(op: op.id, order: op.order)
      q.readyCount += 1
    }
    markDirty(q.id)
  }

  // MARK: - Mutual exclusivity (ProcedureKit `MutualExclusion.swift`)

  /// Conditions passed: take the locks of its categories, or join the line for them, still in
  /// `evaluatingConditions` (ProcedureKit's EvaluateConditions finishes only once the lock is granted,
  /// `Procedure.swift:1678-1685`). It becomes ready only once it holds them all, so an operation
  /// waiting for a queue slot already holds its place. `cause`: why it is ready if granted at once.
  /// `reclaiming`: the operation was started by its queue and asks again for locks given back while
  /// its queue was suspended; it asks the lock manager directly, suspended or not
  /// (`ProcedureQueue.swift:488-512`), and begins once it holds them.
  func requestLocks(_ op: OperationRecord, then cause: StateCause, reclaiming: Bool = false) {
    if !reclaiming && (op.spec.exclusivity.isEmpty || op.cancelled) {
      evaluationEnded(op, cause)
      return
    }
    // ProcedureKit `ProcedureQueue.swift:432-447`: a suspended queue keeps the request until it
    // resumes (X10).
    if !reclaiming, let qid = op.queue, queues[qid].suspended {
      queues[qid].deferredLockRequests.append((op.id, cause))
      return
    }
    for cat in op.spec.exclusivity {
      var l = locks[cat, default: CategoryLock()]
      if !l.waiters.contains(op.id) { l.waiters.append(op.id) }
      locks[cat] = l
    }
    if canAcquire(op) {
      acquire(op)
      if !reclaiming { evaluationEnded(op, cause) }
      return
    }
    op.waitingForLocks = true
    op.reclaimingLocks = reclaiming
    for cat in op.spec.exclusivity {
      let l = locks[cat]!
      if let blocker = l.holder ?? l.waiters.first, blocker != op.id {
        emit(.exclusivityWaiting(operation: op.name, category: cat, holder: ops[blocker].name))
      }
    }
  }

  private func canAcquire(_ op: OperationRecord) -> Bool {
    op.spec.exclusivity.allSatisfy { cat in
      let l = locks[cat, default: CategoryLock()]
      return l.holder == nil && l.waiters.first == op.id
    }
  }

  private func acquire(_ op: OperationRecord) {
    for cat in op.spec.exclusivity {
      locks[cat]!.holder = op.id
      locks[cat]!.waiters.removeFirst()
      emit(.exclusivityAcquired(operation: op.name, category: cat))
    }
    op.holdsLocks = true
    op.waitingForLocks = false
  }

  /// Gives back its locks (finished) or its places in line (cancelled while waiting), then grants the
  /// locks to whoever is first in line.
  func releaseLocks(_ op: OperationRecord) {
    if op.waitingForLocks {
      for cat in op.spec.exclusivity { locks[cat]?.waiters.removeAll { $0 == op.id } }
      op.waitingForLocks = false
    }
    if op.holdsLocks {
      op.holdsLocks = false
      for cat in op.spec.exclusivity {
        locks[cat]?.holder = nil
        emit(.exclusivityReleased(operation: op.name, category: cat))
      }
    }
    grantWaiting(in: op.spec.exclusivity)
  }

  func grantWaiting(in categories: [String]) {
    var pending = categories
    var i = 0
    while i < pending.count {
      let cat = pending[i]
      i += 1
      guard let first = locks[cat]?.waiters.first else { continue }
      let w = ops[first]
      guard w.waitingForLocks, canAcquire(w) else { continue }
      if !w.reclaimingLocks, let qid = w.queue, queues[qid].suspended {
        // ProcedureKit `ProcedureQueue.swift:460-468`: granted while its queue is suspended, the lock
        // is given back at once and requested again on resume; the next in line may take it.
        for c in w.spec.exclusivity { locks[c]?.waiters.removeAll { $0 == w.id } }
        w.waitingForLocks = false
        queues[qid].deferredLockRequests.append((w.id, .lockAcquired(category: cat)))
        pending += w.spec.exclusivity
        continue
      }
      acquire(w)
      if w.reclaimingLocks {
        w.reclaimingLocks = false
        if let qid = w.queue { begin(w, on: queues[qid]) }
      } else {
        evaluationEnded(w, .lockAcquired(category: cat))
      }
    }
  }

  /// The queue is suspended: locks granted to its operations that it has not started are given back
  /// (ProcedureKit `ProcedureQueue.swift:274-281`, unclaimed tickets); each asks again once started.
  func giveBackUnclaimedLocks(of q: QueueRecord) {
    var released: [String] = []
    for cat in locks.keys.sorted() {
      guard let h = locks[cat]?.holder else { continue }
      let op = ops[h]
      guard op.queue == q.id, !op.started, op.holdsLocks else { continue }
      op.holdsLocks = false
      op.reclaimsLocks = true
      for c in op.spec.exclusivity {
        locks[c]?.holder = nil
        emit(.exclusivityReleased(operation: op.name, category: c))
      }
      released += op.spec.exclusivity
    }
    grantWaiting(in: released)
  }
}
