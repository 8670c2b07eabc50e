import OpsEvents

/// executing → finishing → finished, groups and produced operations.
///
/// References: swift-corelibs-foundation `Sources/Foundation/Operation.swift` (`_finish`: dependents are
/// released before the completion block, the slot is given back after); ProcedureKit `Procedure.swift`
/// (finishing, the first error is kept), `Group.swift` (children on an inner queue; the group finishes
/// after all children, including ones added later).
extension EngineCore {
  /// The work of an executing operation is over (normally, failed, or early through cancellation).
  func workFinished(_ op: OperationRecord, _ end: WorkEnd) {
    guard op.state == .executing, op.kind != .group else { return }
    let cause: StateCause
    switch end {
    case .returned(let errors):
      // ProcedureKit keeps the first error (`Procedure.swift`, `finish`): an operation that already has
      // one, from a cancel with an error, ignores the work's.
      if op.errors.isEmpty { op.errors += errors }
      if let e = errors.first {
        cause = .workThrew(e)
      } else if op.cancelled && op.spec.cancellation == .ignored {
        cause = .ranDespiteCancel
      } else {
        cause = .workReturned
      }
    case .noticedCancel(let t):
      cause = .noticedCancel(op.cancelCause ?? .command, at: t)
    }
    finish(op, cause)
    settle()
  }

  func finish(_ op: OperationRecord, _ cause: StateCause) {
    if op.state == .ready && !op.started { return }
    transition(op, to: .finishing, cause)
    emit(.willFinish(operation: op.name, errors: op.errors, cancelled: op.cancelled), about: op)
    transition(op, to: .finished, .observersNotified)
    finishedLog?.append(op.id)
    for d in op.dependencies {
      let dep = ops[d]
      dep.unfinishedDependents -= 1
      if dep.unfinishedDependents == 0 { noteIfRetirable(dep) }
    }
    emit(.didFinish(operation: op.name, errors: op.errors, cancelled: op.cancelled), about: op)
    releaseLocks(op)
    // Foundation's order: dependents become ready and their queues schedule while the finished operation
    // still holds its slot; then the completion block is dispatched; then its queue takes the slot back
    // and schedules.
    for d in op.dependents {
      let dep = ops[d]
      dep.unfinishedDependencies -= 1
      if op.spec.barrier, !dep.barrierDependencies.isEmpty { barrierFinished(op, dependent: dep) }
      if dep.state == .pending {
        considerPending(dep, because: .dependencyFinished(op.name, of: dep.dependencies.count))
      }
    }
    producedDependencyFinished(op)
    if op.spec.completion {
      op.awaitingCompletion = true
      mayNotRetire(op)
      host.schedule(after: 0, .completion(op: op.id))
    }
    if let qid = op.queue {
      queues[qid].members.remove(op, in: ops)
      if op.tookSlot { queueTasks.append(.release(queue: qid, by: op.id)) } else { markDirty(qid) }
      // The barrier's dispatch work item ends only after all that finishing.
      if barriers[qid].gate == op.id { queueTasks.append(.openGate(queue: qid)) }
    }
    if let p = op.parent { childFinished(op, of: ops[p]) }
    noteIfRetirable(op)
  }

  func fire(_ timer: EngineTimer) {
    switch timer {
    case .timeout(let id):
      // ProcedureKit `TimeoutObserver.swift`: the timer starts with execution; on expiry it cancels
      // with a timeout error; nothing once finished or cancelled.
      let op = ops[id]
      guard op.state == .executing, !op.cancelled else { return }
      _ = cancel(
        op, errors: ["timed out after \(formatSeconds(op.spec.timeout ?? 0))s"], cause: .timeout)
    case .completion(let id):
      ops[id].awaitingCompletion = false
      noteIfRetirable(ops[id])
      emit(.completion(operation: ops[id].name), about: ops[id])
    }
    settle()
  }

  // MARK: - Groups

  func startGroup(_ group: OperationRecord) {
    let inner = addQueueRecord(
      QueueSpec(name: GroupQueueName.inner(of: group.name), qos: queues[group.queue!].qos))
    group.innerQueue = inner.id
    for name in group.spec.children {
      guard let child = operation(named: name) else { continue }
      guard !child.isEnqueued else {
        emit(
          .refused(
            operation: name, reason: "already on a queue, so it cannot join group \(group.name)"))
        continue
      }
      child.parent = group.id
      mayNotRetire(child)
      group.outstandingChildren += 1
      group.childCount += 1
      enqueueChecked(child, on: inner)
    }
    if group.outstandingChildren == 0 { finish(group, .childrenFinished(0)) }
  }

  private func childFinished(_ child: OperationRecord, of group: OperationRecord) {
    // ProcedureKit `Group.swift:201-214, 483`: the group's error is its first child error, and nothing
    // is collected once the group is cancelled.
    if !group.cancelled, group.childErrors.isEmpty, let e = child.errors.first {
      group.childErrors = ["\(child.name): \(e)"]
    }
    group.outstandingChildren -= 1
    guard group.outstandingChildren == 0 && group.state == .executing else { return }
    if group.errors.isEmpty { group.errors += group.childErrors }
    finish(group, .childrenFinished(group.childCount))
  }

  // MARK: - Production

  /// An executing operation adds a new operation to its queue (a group's children go to its inner queue).
  func produce(_ op: OperationRecord, _ name: String) {
    guard op.state == .executing else { return }
    guard let produced = operation(named: name) else {
      emit(.refused(operation: name, reason: "\(op.name) cannot produce it: no such operation"))
      return
    }
    guard !produced.isEnqueued else {
      emit(
        .refused(operation: name, reason: "\(op.name) cannot produce it: it is already on a queue"))
      return
    }
    emit(.didProduce(operation: op.name, produced: name))
    let target: QueueRecord
    if op.kind == .group, let inner = op.innerQueue {
      produced.parent = op.id
      mayNotRetire(produced)
      op.outstandingChildren += 1
      op.childCount += 1
      target = queues[inner]
    } else {
      if let p = op.parent {
        produced.parent = p
        mayNotRetire(produced)
        ops[p].outstandingChildren += 1
        ops[p].childCount += 1
      }
      target = queues[op.queue!]
    }
    enqueueChecked(produced, on: target)
    settle()
  }

  /// Enqueues an operation already known not to be on a queue.
  func enqueueChecked(_ op: OperationRecord, on queue: QueueRecord) {
    do {
      try enqueue(op, on: queue)
    } catch {
      emit(.refused(operation: op.name, reason: String(describing: error)))
    }
  }
}
