import OpsEvents

/// Why a run that has nothing more scheduled still has unfinished operations: what no key can unblock
/// (a cycle, an async operation that never finishes) and what a key can (a suspended queue, a limit of
/// zero), so the board can say which key.
public struct StuckOperation: Sendable, Equatable {
  public enum Reason: Sendable, Equatable {
    /// A member of a dependency cycle: cancelling one member breaks it.
    case cycle([String])
    /// An async operation whose work never calls finish: it holds its slot forever.
    case neverFinishes
    /// Its queue is suspended: resuming it lets the operation move on.
    case suspendedQueue(String)
    /// Its queue allows 0 at a time: raising the limit lets it start.
    case zeroLimit(String)
    /// Ready, it waits for a slot of this queue, every slot held by an operation the queue started
    /// that asks again for a lock given back while the queue was suspended (X10): raising the limit
    /// lets it start.
    case slotsHeldForLocks(String)
    /// It waits, directly or not, for an operation stuck for another reason.
    case waitsFor(String)
    /// Outside any queue or waiting for something that will never be added.
    case other(String)
  }

  public let operation: String
  public let reason: Reason

  /// Whether a command (resume, raise the limit) unblocks it without cancelling anything.
  public var commandCanUnblock: Bool {
    switch reason {
    case .suspendedQueue, .zeroLimit, .slotsHeldForLocks: true
    default: false
    }
  }
}

extension Projection {
  /// The unfinished operations and why each cannot finish on its own. Meaningful when the engine has
  /// nothing more scheduled (the run is over).
  public func stuckOperations() -> [StuckOperation] {
    var out: [StuckOperation] = []
    for op in operations where op.state != .finished {
      out.append(StuckOperation(operation: op.name, reason: stuckReason(op)))
    }
    return out
  }

  private func stuckReason(_ op: OperationInfo) -> StuckOperation.Reason {
    let q = queue(named: op.queue)
    if let c = cycle(containing: op.name) { return .cycle(c) }
    switch op.state {
    case .executing, .finishing:
      return .neverFinishes
    case .ready, .evaluatingConditions:
      // Waiting for a lock (in evaluatingConditions) comes first: it is not ready until it gets it.
      if let lock = op.waitingForLock {
        return .waitsFor(lockHolders[lock.category] ?? lock.holder)
      }
      if let q, q.suspended { return .suspendedQueue(q.name) }
      if let q, q.maxConcurrent == 0 { return .zeroLimit(q.name) }
      if let q, q.isAtLimit {
        if let first = executing(in: q.name).first { return .waitsFor(first.name) }
        if q.reclaiming > 0 { return .slotsHeldForLocks(q.name) }
      }
      return .other(whyWaiting(op.name) ?? op.state.rawValue)
    case .pending:
      if let d = op.dependencies.first(where: { operation(named: $0)?.state != .finished }) {
        return operation(named: d) == nil
          ? .other("its dependency \(d) is never added to a queue") : .waitsFor(d)
      }
      if let q, q.suspended { return .suspendedQueue(q.name) }
      // Recordings made before the lock was asked for in evaluatingConditions waited here.
      if let lock = op.waitingForLock {
        return .waitsFor(lockHolders[lock.category] ?? lock.holder)
      }
      return .other(whyWaiting(op.name) ?? op.state.rawValue)
    case .initialized, .finished:
      return .other(whyWaiting(op.name) ?? op.state.rawValue)
    }
  }

  /// One sentence for the board's status line when the run is over with operations unfinished:
  /// what can still be unblocked by a key, and what cannot.
  public func stuckSummary() -> String? {
    let stuck = stuckOperations()
    guard !stuck.isEmpty else { return nil }
    var suspended: [String] = []
    var zero: [String] = []
    var rootCause: [String: StuckOperation.Reason] = [:]
    for s in stuck { rootCause[s.operation] = s.reason }
    // Follow "waits for" to the operation that is stuck for a reason of its own (iteratively).
    func root(_ name: String) -> StuckOperation.Reason? {
      var seen = Set<String>()
      var current = name
      while case .waitsFor(let next)? = rootCause[current], seen.insert(current).inserted {
        current = next
      }
      return rootCause[current]
    }
    var held: [String] = []
    var bySuspension = 0
    var byZeroLimit = 0
    var bySlotsHeld = 0
    var never = 0
    for s in stuck {
      switch root(s.operation) {
      case .suspendedQueue(let q)?:
        bySuspension += 1
        if !suspended.contains(q) { suspended.append(q) }
      case .zeroLimit(let q)?:
        byZeroLimit += 1
        if !zero.contains(q) { zero.append(q) }
      case .slotsHeldForLocks(let q)?:
        bySlotsHeld += 1
        if !held.contains(q) { held.append(q) }
      default:
        never += 1
      }
    }
    func wait(_ n: Int) -> String { n == 1 ? "1 waits" : "\(n) wait" }
    var parts: [String] = []
    if bySuspension > 0 {
      parts.append(
        "\(wait(bySuspension)) for suspended \(suspended.joined(separator: ", ")) (s resumes)")
    }
    if byZeroLimit > 0 {
      parts.append(
        "\(wait(byZeroLimit)) for a limit of 0 on \(zero.joined(separator: ", ")) (+ raises it)")
    }
    if bySlotsHeld > 0 {
      parts.append(
        "\(bySlotsHeld) deadlocked on \(held.joined(separator: ", ")): its slots are held by "
          + "operations waiting for locks that a ready one holds (+ raises the limit)")
    }
    if never > 0 {
      parts.append(
        never == 1
          ? "1 can never finish on its own (c cancels it)"
          : "\(never) can never finish on their own (c cancels one)")
    }
    return "Nothing more will happen: " + parts.joined(separator: "; ") + "."
  }
}
