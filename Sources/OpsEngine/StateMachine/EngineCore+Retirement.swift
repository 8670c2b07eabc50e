import OpsEvents

/// Forgetting finished operations (the live runtime's retention): a long-running program sends
/// millions of operations through its queues, and a record of each kept forever is memory without
/// bound. A retired operation's name is forgotten (lookups and commands say so) and its record is
/// replaced by one shared placeholder, which is all that anything still holding its id may read.
extension EngineCore {
  /// Whether nothing can need the operation's own record any more: it finished, its completion block
  /// ran, every operation that depends on it or that it was produced for finished, and it is not a
  /// group or a group's child whose group is still running. Retiring such an operation changes no
  /// event and no decision: the engine only reads a finished operation through those.
  func canRetire(_ id: Int) -> Bool {
    let op = ops[id]
    guard op !== retiredPlaceholder, op.state == .finished, !op.awaitingCompletion,
      op.kind != .group
    else { return false }
    if let p = op.parent, ops[p].state != .finished { return false }
    if let f = op.producedFor, ops[f.op].state != .finished { return false }
    assert(
      (op.unfinishedDependents == 0) == op.dependents.allSatisfy { ops[$0].state == .finished },
      "\(op.name): \(op.unfinishedDependents) unfinished dependents counted")
    return op.unfinishedDependents == 0
  }

  /// `canRetire`, answered from the operation's hint where that says so (see `RetireHint`).
  func isRetirable(_ id: Int) -> Bool { retireHints[id].retirable || canRetire(id) }

  /// Forgets a retirable operation (see `canRetire`): its name leaves `opByName`, so a new
  /// operation may take it, and its record is replaced by the placeholder, which lookups treat as
  /// absent. Returns the record, for the caller to free where it costs no one a wait. Reads only
  /// the hint, not the record (see `RetireHint`).
  func retire(_ id: Int) -> OperationRecord {
    // The caller has just asked (the live runtime, under its lock); asking again here cost as much
    // as the rest of the retirement.
    assert(canRetire(id), "operation \(id) cannot be retired")
    opByName.remove(hash: retireHints[id].nameHash, id: id)
    // Exchanged, not copied: the record's reference count is not touched.
    var record = retiredPlaceholder
    swap(&ops[id], &record)
    ops.retire(id, standIn: retiredPlaceholder)
    retireHints.retire(id, standIn: RetireHint(nameHash: 0))
    retiredCount += 1
    return record
  }

  /// Notes that nothing holds the operation back now if so (see `RetireHint`); called where its
  /// record was just read or written anyway.
  func noteIfRetirable(_ op: OperationRecord) {
    if canRetire(op.id) { retireHints[op.id].retirable = true }
  }

  /// Something may hold the operation back again (a new unfinished dependent, a parent, a
  /// condition it is produced for, a completion block to run).
  func mayNotRetire(_ op: OperationRecord) { retireHints[op.id].retirable = false }

  /// The result of a command or lookup on a name the engine does not know.
  func unknownOperation(_ name: String) -> String {
    retiredCount == 0
      ? "no operation named '\(name)'"
      : "no operation named '\(name)' (finished operations beyond the runtime's retention are "
        + "forgotten: \(retiredCount) so far)"
  }
}

/// What retiring an operation reads, by id, apart from its record. An operation is retired long after
/// it finished (the standard retention keeps the 10,000 last), when its record is likely out of the
/// core's caches, and reading it happened under the live runtime's lock (cachegrind with a 512 KB
/// last level, flat, limit 4, 100k, without the lints: 67 misses an operation in the whole run
/// before, 63 after; docs/BENCHMARKS.md, "Session 19"). The hint is written where the record is at
/// hand anyway (as it finishes, or as its last dependent does) and lies next to its neighbours'.
struct RetireHint {
  /// `OperationRecord.nameHash`, to take the name out of `EngineCore.opByName`.
  let nameHash: Int
  /// `canRetire` was true when this was set, and every change that can make it false since would
  /// have cleared it (`mayNotRetire`): a new unfinished dependent, a parent, a condition the
  /// operation is produced for, a completion block to run. False: ask `canRetire`.
  var retirable = false
  /// The live runtime's lints forgot the operation already (`LintsForgetting`): its retirement
  /// need not tell them.
  var forgottenByLints = false
}
