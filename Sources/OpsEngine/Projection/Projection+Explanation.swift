import OpsEvents

extension Projection {
  /// Why an operation is not executing, in one line computed from the projection. Nil for an
  /// operation that is executing or finished (nothing to explain) or unknown.
  /// `missedEvents`: some of the story never arrived (a live program's viewer caught up), so a
  /// dependency never heard of may have been added unseen, and is said to be unseen.
  public func whyWaiting(_ name: String, missedEvents: Bool = false) -> String? {
    whyWaiting(name, lines: [:], missedEvents: missedEvents)
  }

  /// `whyWaiting` with the first in line of some queues already known (`readyLine`), so explaining
  /// many operations of one queue at one instant looks at its ready lists once.
  func whyWaiting(_ name: String, lines: [String: [Int]], missedEvents: Bool = false) -> String? {
    guard let op = operation(named: name), let q = queue(named: op.queue) else { return nil }
    switch op.state {
    case .executing, .finishing, .finished:
      return nil
    case .initialized:
      return op.cancelled
        ? "cancelled outside any queue: it will never finish until a queue starts it"
        : "just added to \(q.name): it becomes pending at once"
    case .pending:
      if let cycle = cycle(containing: name) {
        return
          "part of a dependency cycle \(OpsEvents.cycleText(cycle)): none of them can ever start"
      }
      // Many dependencies: how many are left, kept as they finish, rather than a list that would
      // be rebuilt, thousands of names long, each time one of them finishes.
      if op.dependencies.count > Self.namedDependencies && keepsDependents {
        let left = op.dependencies.count - op.finishedDependencies
        if left > 0 {
          return "waiting for \(left) of its \(op.dependencies.count) dependencies"
        }
      }
      // A dependency may not be on any queue yet: the projection then has never heard of it.
      let unknown =
        missedEvents ? "not seen: its events did not arrive" : "not added to a queue yet"
      let waiting = op.dependencies.compactMap { d -> String? in
        guard let dep = operation(named: d) else { return "\(d) (\(unknown))" }
        return dep.state == .finished ? nil : "\(d) (\(dep.state.rawValue))"
      }
      if !waiting.isEmpty {
        return
          "waiting for \(waiting.count == 1 ? "its dependency" : "dependencies") \(waiting.joined(separator: ", "))"
      }
      // Recordings made before the lock was asked for in `evaluatingConditions` waited here.
      if let lock = op.waitingForLock {
        return lockText(lock)
      }
      // An exclusivity category is a condition too (ProcedureKit's `MutuallyExclusive`): the lock is
      // asked for within the evaluation, which waits for the queue to resume.
      if q.suspended && !op.conditions.isEmpty {
        return "its queue \(q.name) is suspended: condition evaluation waits until it resumes"
      }
      return "its dependencies have finished; it moves on at once"
    case .evaluatingConditions:
      // The lock is asked for once the other conditions passed; evaluation ends when it is granted.
      if let lock = op.waitingForLock {
        return op.conditions.contains(where: { !$0.isLock })
          ? "its conditions passed; " + lockText(lock)
          : "evaluating its conditions: " + lockText(lock)
      }
      let waiting = op.conditions.filter { $0.status == .waiting && $0.dependency != nil }.map {
        "\($0.name) waits for \($0.dependency!) (\(operation(named: $0.dependency!)?.state.rawValue ?? "not added"))"
      }
      let evaluating = op.conditions.filter { $0.status == .evaluating }.map(\.name)
      var parts: [String] = []
      if !evaluating.isEmpty {
        parts.append(
          "evaluating condition\(evaluating.count == 1 ? "" : "s") \(evaluating.joined(separator: ", "))"
        )
      }
      parts += waiting
      if parts.isEmpty, let lock = op.conditions.first(where: \.isLock),
        op.conditions.allSatisfy({ $0.isLock || $0.status == .satisfied })
      {
        // Foundation adds a barrier as a dependency behind ProcedureKit's back: the evaluation did
        // not wait for it, but the operation starts only after it (SEMANTICS.md, X11).
        if lock.status == .holdsLock,
          let barrier = op.dependencies.first(where: {
            operation(named: $0).map { $0.kind == .barrier && $0.state != .finished } ?? false
          })
        {
          return "its conditions passed and it holds the \(lock.name) exclusivity lock; "
            + "it becomes ready once the barrier \(barrier) has finished"
        }
        // Between the engine's events of one instant: the lock asked for, or just granted.
        return lock.status == .holdsLock
          ? "evaluating its conditions: it got the \(lock.name) exclusivity lock, so it becomes ready"
          : "evaluating its conditions: asking for the \(lock.name) exclusivity lock"
      }
      return parts.isEmpty ? "its conditions are being evaluated" : parts.joined(separator: "; ")
    case .ready:
      if let lock = op.waitingForLock {
        // Its lock was given back while its queue was suspended; started, it asks again (X10).
        return "started by its queue, it holds a slot and asks again for the lock given back "
          + "while its queue was suspended: " + lockText(lock)
      }
      if op.reclaiming {
        return "started by its queue, it holds its lock again: it executes now"
      }
      let prefix =
        op.cancelled ? "cancelled, waiting for its queue to start it so it can finish: " : ""
      return prefix + readyReason(op, q, line: lines[q.name])
    }
  }

  /// `a → b → c → a`: each waits for the next. A long cycle is shortened in the middle, so a warning
  /// per member does not repeat thousands of names.
  private func lockText(_ lock: (category: String, holder: String)) -> String {
    if let holder = lockHolders[lock.category] {
      return "waiting for the \(lock.category) exclusivity lock held by \(holder)"
    }
    return "waiting in line for the \(lock.category) exclusivity lock behind \(lock.holder)"
  }

  private func readyReason(_ op: OperationInfo, _ q: QueueInfo, line known: [Int]?) -> String {
    if q.suspended { return "its queue \(q.name) is suspended" }
    if q.maxConcurrent == 0 {
      return "\(q.name) allows 0 at a time (maxConcurrent 0): nothing starts there"
    }
    // Foundation starts the highest priority first, FIFO within a priority. Only the first few in
    // line are told what is ahead of them: the text of those behind does not change as the line moves.
    let line = known ?? readyLine(of: q.name, first: Self.explainedInLine)
    guard
      let position = line.firstIndex(where: { operations.read($0) { $0.pointee.index } == op.index }
      )
    else {
      return q.isAtLimit
        ? "\(q.name) is at its limit (\(q.limitText) at a time) and more than "
          + "\(Self.explainedInLine) ready operations are ahead of it: it waits its turn"
        : "more than \(Self.explainedInLine) ready operations are ahead of it in \(q.name)"
    }
    // Read in place: a copied record would copy its history too.
    let ahead = line[..<position].map { i in
      operations.read(i) { "\($0.pointee.name) (\($0.pointee.priority.rawValue))" }
    }
    let aheadText =
      ahead.prefix(4).joined(separator: ", ")
      + (ahead.count > 4 ? " and \(ahead.count - 4) more" : "")
    if q.isAtLimit {
      let running = executingNames(in: q)
      var text = "\(q.name) is at its limit: \(q.executing)/\(q.limitText) executing"
      if !running.isEmpty {
        text += ": " + running.prefix(6).joined(separator: ", ") + (running.count > 6 ? ", …" : "")
      }
      if q.reclaiming > 0 {
        let names = reclaimingNames(in: q)
        text +=
          "; \(q.reclaiming) slot\(q.reclaiming == 1 ? "" : "s") held by "
          + names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
          + ", waiting for a lock given back while it was suspended"
      }
      return text + (ahead.isEmpty ? "" : "; next in line before it: " + aheadText)
    }
    if !ahead.isEmpty { return "ahead of it in \(q.name): " + aheadText }
    return "ready: its queue starts it now"
  }

  /// `executing(in:)`'s names, read in place (no record copied).
  private func executingNames(in q: QueueInfo) -> [String] {
    q.executingSet.map { i in
      operations.read(i) { ($0.pointee.startedAt ?? 0, $0.pointee.index, $0.pointee.name) }
    }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
  }

  /// Started operations of the queue that wait for a lock given back (X10), in add order. Where the
  /// projection keeps no members (the live runtime's) the operations are scanned: rare, and only
  /// while the queue has some.
  func reclaimingNames(in q: QueueInfo) -> [String] {
    guard q.reclaiming > 0 else { return [] }
    if keepsMembers {
      return q.memberSet.sorted().compactMap { i in
        operations.read(i) { $0.pointee.reclaiming ? $0.pointee.name : nil }
      }
    }
    return operations.compactMap { $0.queue == q.name && $0.reclaiming ? $0.name : nil }
  }

  /// A pending operation's dependencies are named up to this many; beyond, they are counted.
  static let namedDependencies = 8
  /// The first ready operations of a queue, this many, are told what is ahead of them.
  static let explainedInLine = 8

  /// The first `k` ready operations of `queue` in the order Foundation starts them (highest priority
  /// first, FIFO within one), as projection indices: one pass over its ready lists.
  func readyLine(of queue: String, first k: Int) -> [Int] {
    guard let q = self.queue(named: queue) else { return [] }
    var line: [Int] = []
    for level in stride(from: 4, through: 0, by: -1) where line.count < k {
      let need = k - line.count
      var best: [Int] = []
      for i in q.readyByPriority[level] {
        let index = operations.read(i) { $0.pointee.index }
        if best.count == need, let last = best.last,
          index >= operations.read(last, { $0.pointee.index })
        {
          continue
        }
        let at =
          best.firstIndex { operations.read($0, { $0.pointee.index }) > index } ?? best.count
        best.insert(i, at: at)
        if best.count > need { best.removeLast() }
      }
      line += best
    }
    return line
  }

  /// How many operations of `queue` are ready.
  func readyCount(of queue: String) -> Int {
    self.queue(named: queue)?.readyByPriority.reduce(0) { $0 + $1.count } ?? 0
  }

  /// Every ready operation of `queue`, unordered (projection indices).
  func readyMembers(of queue: String) -> [Int] {
    self.queue(named: queue)?.readyByPriority.flatMap { $0 } ?? []
  }
}
