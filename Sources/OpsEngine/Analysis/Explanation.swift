extension EngineReplica {
  /// Why an operation is not executing, in one line computed from the replica's state. Nil for an
  /// operation that is executing or finished (nothing to explain) or unknown.
  public func whyWaiting(_ name: String) -> String? {
    guard let op = operations[name], let q = queues[op.queue] else { return nil }
    switch op.state {
    case .executing, .finishing, .finished:
      return nil
    case .initialized:
      return op.cancelled
        ? "cancelled outside any queue: it will never finish until a queue starts it"
        : "not added to a queue yet"
    case .pending:
      if let cycle = cycle(containing: name) {
        return
          "part of a dependency cycle \((cycle + [cycle[0]]).joined(separator: " → ")): none of them can ever start"
      }
      // A dependency may not be on any queue yet: the replica then has never heard of it.
      let waiting = op.dependencies.compactMap { d -> String? in
        guard let dep = operations[d] else { return "\(d) (not added to a queue yet)" }
        return dep.state == .finished ? nil : "\(d) (\(dep.state.rawValue))"
      }
      if !waiting.isEmpty {
        return
          "waiting for \(waiting.count == 1 ? "its dependency" : "dependencies") \(waiting.joined(separator: ", "))"
      }
      if q.suspended && !op.conditions.isEmpty {
        return "its queue \(q.name) is suspended: condition evaluation waits until it resumes"
      }
      return "its dependencies have finished; it moves on at once"
    case .evaluatingConditions:
      let evaluating = op.conditions.filter { $0.status == .evaluating }.map(\.name)
      return evaluating.isEmpty
        ? "its conditions are being evaluated"
        : "evaluating condition\(evaluating.count == 1 ? "" : "s") \(evaluating.joined(separator: ", "))"
    case .ready:
      let prefix =
        op.cancelled ? "cancelled, waiting for its queue to start it so it can finish: " : ""
      return prefix + readyReason(op, q)
    }
  }

  private func readyReason(_ op: OperationInfo, _ q: QueueInfo) -> String {
    if q.suspended { return "its queue \(q.name) is suspended" }
    if q.maxConcurrent == 0 {
      return "\(q.name) allows 0 at a time (maxConcurrent 0): nothing starts there"
    }
    if !op.cancelled, let wait = op.waitingForLock, !q.isAtLimit {
      let holder = lockHolders[wait.category] ?? wait.holder
      return "waiting for the \(wait.category) exclusivity lock held by \(holder)"
    }
    // Foundation starts the highest priority first, FIFO within a priority.
    let ahead = q.members.compactMap { operations[$0] }.filter {
      $0.state == .ready && $0.name != op.name && $0.waitingForLock == nil
        && ($0.priority.value > op.priority.value
          || ($0.priority == op.priority && $0.order < op.order))
    }
    let aheadText =
      ahead.prefix(4).map { "\($0.name) (\($0.priority.rawValue))" }.joined(separator: ", ")
      + (ahead.count > 4 ? " and \(ahead.count - 4) more" : "")
    if q.isAtLimit {
      return "\(q.name) is at its limit: \(q.executing.count)/\(q.limitText) executing: "
        + q.executing.joined(separator: ", ")
        + (ahead.isEmpty ? "" : "; next in line before it: " + aheadText)
    }
    if !ahead.isEmpty { return "ahead of it in \(q.name): " + aheadText }
    return "ready: its queue starts it now"
  }
}
