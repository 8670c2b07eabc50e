import OpsEvents

/// Cancellation. Foundation (`Sources/Foundation/Operation.swift`, `cancel()`): a waiting operation is
/// ready at once so its queue can start it, skip main() and finish it; an executing one only has its
/// flag set and its work decides. ProcedureKit (`Procedure.swift`, `cancel(with:)`): the errors given
/// with the cancel are the procedure's; a group cancels its children (`Group.swift`).
extension EngineCore {
  func markCancelled(_ op: OperationRecord, errors: [String], cause: CancelCause) {
    op.cancelled = true
    op.cancelCause = cause
    op.errors += errors
    emit(.cancelled(operation: op.name, errors: errors, cause: cause))
    // Immediate mode finishes an executing operation without its work (see `cancel`).
    if op.state == .executing && op.spec.cancellation == .immediate { host.abandonExecuting(op) }
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
      if let q = op.queue {
        queues[q].awaitingEvaluation.removeAll { $0 == op.id }
        queues[q].deferredLockRequests.removeAll { $0.op == op.id }
      }
      op.evaluationOver = false
      if op.waitingForLocks { releaseLocks(op) }
      abandonProducedDependencies(of: op)
      makeReady(op, .cancelled(cause))
    case .ready:
      if let q = op.queue { markDirty(q) }
    case .executing:
      if op.kind == .group {
        let children = ops.filter { $0.parent == op.id && $0.state < .finishing }
        // ProcedureKit `Group.swift:140-148`: a group cancelled with an error passes it on.
        let passed = errors.map { "parent \(op.name) cancelled: \($0)" }
        for child in children { _ = cancel(child, errors: passed, cause: .parent, settling: false) }
      } else {
        switch op.spec.cancellation {
        case .immediate: finish(op, .finishedAtOnce(cause))
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
}
