import Dispatch
import OpsEvents

// Retirement: finished operations the program can no longer name are forgotten, so memory follows
// the operations in flight.

extension LiveRuntime {
  /// Retires the oldest finished operations beyond `kept`, once the step is over (the core may still
  /// read an operation during the step that finished it). One that cannot be retired yet (a
  /// dependent has not finished) goes to the back, to be tried again later. Under the lock.
  func retireFinished(keeping kept: Int) {
    // Taken in exchange for the emptied list of the last step: each read of the core's list
    // retained and released it.
    swap(&finishedInStep, &core.finishedLog!)
    if lintsForget {
      lintsForgetting.step(finished: finishedInStep, in: core, names: &retiredNames)
    }
    finishedOrder += finishedInStep
    finishedInStep.clearKeepingCapacity()
    // Only operations with at least `kept` created after them: a program names the operations it
    // just added (as dependencies), and those stay known however fast they finish. One too recent
    // waits in `tooRecent` until it is not (it was tried again at every step, 64 a step, when
    // operations finish about as fast as they are added).
    let oldEnough = core.ops.count - kept
    while let id = tooRecent.min, id < oldEnough {
      tooRecent.removeMin()
      retireOrPostpone(id)
    }
    // At most 64 a step: operations that wait for a dependent are not all looked at in every step.
    for _ in 0..<max(0, min(finishedOrder.count - kept, 64)) {
      let id = finishedOrder.removeFirst()
      if id < oldEnough { retireOrPostpone(id) } else { tooRecent.insert(id) }
    }
  }

  /// Retires a finished operation old enough to go, or puts it at the back of the line if it cannot
  /// go yet (a dependent has not finished). Under the lock.
  func retireOrPostpone(_ id: Int) {
    guard core.isRetirable(id) else {
      finishedOrder.append(id)
      return
    }
    if lintsForget && !core.retireHints[id].forgottenByLints {
      retiredNames.append(RetiredName(core.ops[id]))
    }
    retiredRecords.append(core.retire(id))
    workTable.retired(id)
    if !conditionClosures.isEmpty { conditionClosures[id] = nil }
  }

  /// Per-operation slots still held (tests: they follow the operations in flight).
  var keptEntries: Int { withCore { _ in workTable.kept } }

  /// Retired records not yet freed (tests: the next drain frees them).
  var retiredRecordsHeld: Int { withCore { _ in retiredRecords.count } }

  /// Chunks of the core's records still held, and all there have been (tests: retired ones go).
  var recordChunks: (held: Int, all: Int) {
    withCore { core in (core.ops.heldChunks, core.ops.chunks.count) }
  }
}
