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

  /// Forgets a retirable operation (see `canRetire`): its name leaves `opByName`, so a new
  /// operation may take it, and its record is replaced by the placeholder, which lookups treat as
  /// absent.
  func retire(_ id: Int) {
    // The caller has just asked `canRetire` (the live runtime, under its lock); asking again here
    // cost as much as the rest of the retirement.
    assert(canRetire(id), "operation \(id) cannot be retired")
    opByName.remove(hash: ops[id].nameHash, id: id)
    ops[id] = retiredPlaceholder
    ops.retire(id, standIn: retiredPlaceholder)
    retiredCount += 1
  }

  /// The result of a command or lookup on a name the engine does not know.
  func unknownOperation(_ name: String) -> String {
    retiredCount == 0
      ? "no operation named '\(name)'"
      : "no operation named '\(name)' (finished operations beyond the runtime's retention are "
        + "forgotten: \(retiredCount) so far)"
  }
}
