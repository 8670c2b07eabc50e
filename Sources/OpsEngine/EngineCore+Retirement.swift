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

  /// Forgets a retirable operation (see `canRetire`). Its name stays in `opByName`, pointing at the
  /// placeholder, which lookups treat as absent and a new operation of that name may claim: removing
  /// a key from Swift's open-addressing dictionary rehashes the keys after it (~1,100 instructions a
  /// name under the live runtime's lock, the most of any step of a finished operation). The stale
  /// names are swept out together once they outnumber the live ones, so the dictionary stays within
  /// twice its live size and each retirement pays a share of one rehash.
  func retire(_ id: Int) {
    // The caller has just asked `canRetire` (the live runtime, under its lock); asking again here
    // cost as much as the rest of the retirement.
    assert(canRetire(id), "operation \(id) cannot be retired")
    ops[id] = retiredPlaceholder
    ops.retire(id, standIn: retiredPlaceholder)
    retiredCount += 1
    staleNames += 1
    if staleNames > 1024 && staleNames * 2 > opByName.count { sweepStaleNames() }
  }

  /// Emptied and refilled in place, through a scratch list kept between sweeps: a new table each
  /// time freed the old one (~800 KB with 10,000 operations kept; 30 times in 1M operations) and
  /// grew the new one back, and each large block freed makes glibc raise its mmap and trim
  /// thresholds, after which the threads' arenas keep more of what they free.
  private func sweepStaleNames() {
    sweepScratch.removeAll(keepingCapacity: true)
    for (name, id) in opByName where ops[id] !== retiredPlaceholder {
      sweepScratch.append((name, id))
    }
    opByName.removeAll(keepingCapacity: true)
    for (name, id) in sweepScratch { opByName[name] = id }
    sweepScratch.removeAll(keepingCapacity: true)
    staleNames = 0
  }

  /// The result of a command or lookup on a name the engine does not know.
  func unknownOperation(_ name: String) -> String {
    retiredCount == 0
      ? "no operation named '\(name)'"
      : "no operation named '\(name)' (finished operations beyond the runtime's retention are "
        + "forgotten: \(retiredCount) so far)"
  }
}
