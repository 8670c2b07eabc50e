import OpsEvents

/// ready → executing: Foundation's `_schedule` (swift-corelibs-foundation
/// `Sources/Foundation/Operation.swift`): barriers first, then priorities from veryHigh to veryLow, FIFO
/// within each, until no slot is left; a suspended queue starts nothing.
extension EngineCore {
  func markDirty(_ qid: Int) {
    if !dirty[qid] {
      dirty[qid] = true
      queueTasks.append(.schedule(queue: qid))
    }
  }

  /// Runs queue scheduling until nothing more can start. Reentrancy-safe: nested calls return at once.
  func settle() {
    guard !settling else { return }
    settling = true
    defer { settling = false }
    while queueTaskHead < queueTasks.count {
      let item = queueTasks[queueTaskHead]
      queueTaskHead += 1
      let q: QueueRecord
      switch item {
      case .schedule(let qid):
        dirty[qid] = false
        q = queues[qid]
      case .release(let qid, let by):
        q = queues[qid]
        q.executing -= 1
        q.roomMaker = .slotFreed(by: ops[by].name)
      case .openGate(let qid):
        barriers[qid].gate = nil
        let held = barriers[qid].held
        barriers[qid].held = []
        for id in held { dispatch(ops[id], on: queues[qid]) }
        continue
      }
      // The starts go through a buffer kept between passes (one allocation, not one a pass);
      // taken out while dispatching, in case a dispatch ever schedules again.
      var started: [OperationRecord] = []
      swap(&started, &startedBuffer)
      schedule(q, into: &started)
      for op in started { dispatch(op, on: q) }
      started.clearKeepingCapacity()
      swap(&started, &startedBuffer)
    }
    queueTasks.clearKeepingCapacity()
    queueTaskHead = 0
  }

  private func schedule(_ q: QueueRecord, into started: inout [OperationRecord]) {
    defer { q.roomMaker = nil }
    guard !q.suspended else { return }
    var slots = q.limit == Int.max ? Int.max : q.limit - q.executing
    func take(_ op: OperationRecord) {
      op.tookSlot = true
      q.executing += 1
      if slots != Int.max { slots -= 1 }
      op.startCause = .started(
        queue: q.name, slot: q.executing, limit: q.maxConcurrent, after: q.roomMaker)
      started.append(op)
    }
    while slots > 0, !barriers[q.id].ready.isEmpty, let id = barriers[q.id].ready.popFirst() {
      let op = ops[id]
      barriers[q.id].waiting.removeAll { $0 == op.id }
      take(op)
    }
    guard q.readyCount > 0 else { return }
    for p in 0..<5 where slots > 0 {
      while slots > 0, let id = q.ready[p].popFirst() {
        q.readyCount -= 1
        take(ops[id])
      }
    }
  }

  /// The queue hands a dispatched operation to its dispatch queue: it begins at once, unless a barrier
  /// is executing there, in which case it keeps its slot and begins once the barrier is over.
  func dispatch(_ op: OperationRecord, on q: QueueRecord) {
    if barriers[q.id].gate != nil {
      barriers[q.id].held.append(op.id)
    } else {
      begin(op, on: q)
    }
  }

  func begin(_ op: OperationRecord, on q: QueueRecord) {
    // ProcedureKit (`ProcedureQueue.swift:488-520`, `Procedure.swift:692-715`): a lock given back while
    // its queue was suspended is requested again once the queue starts the operation, which keeps its
    // slot meanwhile (X10).
    if op.reclaimsLocks, !op.spec.exclusivity.isEmpty, !op.cancelled || op.kind == .group {
      op.reclaimsLocks = false
      requestLocks(op, then: .lockAcquired(category: op.spec.exclusivity[0]), reclaiming: true)
      if !op.holdsLocks { return }
    }
    op.started = true
    if op.cancelled && op.kind != .group {
      // Foundation: a cancelled operation is started by its queue, skips main() and finishes.
      // A group is the exception (G8): ProcedureKit's GroupProcedure disables automatic finishing
      // (`Group.swift:111`), so `_start` still calls `execute` when it is cancelled
      // (`Procedure.swift:672`); it adds its children, cancelled (`Group.swift:382-385`), and finishes
      // after them.
      finish(op, .skippedMain)
      return
    }
    if op.spec.barrier { barriers[q.id].gate = op.id }
    transition(
      op, to: .executing,
      op.startCause
        ?? .started(queue: q.name, slot: max(1, q.executing), limit: q.maxConcurrent, after: nil))
    emit(.didStart(operation: op.name), about: op)
    // A timeout that is not positive sets no timer (SEMANTICS T4).
    if let t = op.spec.timeout, t > 0 { host.schedule(after: t, .timeout(op: op.id)) }
    if op.kind == .group { startGroup(op) }
    host.execute(op)
  }
}
