import OpsEvents

/// ProcedureKit's suspension deadlock (SEMANTICS X10): operations a queue started after it was
/// resumed hold all its slots, each asking again for a lock that a ready operation of the same queue
/// holds, and that one waits for a slot. Nothing in the queue can move.
public struct SlotDeadlockLint: Lint {
  public var kind: String { "slotDeadlock" }
  /// What makes or breaks the deadlock: a reclaimer waiting, a lock changing hands, a cancel (which
  /// ends a wait), a limit, and (of states) entering or leaving ready or executing.
  public var eventTypes: Set<EventType>? {
    [
      .exclusivityWaiting, .exclusivityAcquired, .exclusivityReleased, .cancelled, .state,
      .queueMaxConcurrent,
    ]
  }
  public var states: Set<OperationState>? { [.ready, .executing] }
  public var summary: String {
    "a queue's slots are held by operations waiting for locks that a ready one holds"
  }
  public var teaching: String { "Raising the queue's limit lets the ready one start." }

  /// The queues deadlocked after the last look: a deadlock is raised when it forms, and again only
  /// if it forms anew.
  private var deadlocked: Set<String> = []

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    // The common case, on every start and finish of the live runtime: nothing to look at.
    guard p.reclaimingCount > 0 else {
      if !deadlocked.isEmpty { deadlocked.removeAll() }
      return
    }
    var now: Set<String> = []
    defer { deadlocked = now }
    for q in p.queues where q.reclaiming > 0 && q.executing == 0 && q.isAtLimit {
      var holders: [String] = []
      var waiting: [String] = []
      var stuck = true
      for name in p.reclaimingNames(in: q) {
        guard let op = p.operation(named: name), let lock = op.waitingForLock,
          let h = p.lockHolders[lock.category],
          let holder = p.operation(named: h), holder.queue == q.name, holder.state == .ready,
          !holder.reclaiming
        else {
          stuck = false
          break
        }
        waiting.append(op.name)
        if !holders.contains(h) { holders.append(h) }
      }
      guard stuck, !waiting.isEmpty else { continue }
      now.insert(q.name)
      guard !deadlocked.contains(q.name) else { continue }
      out.raise(
        q.name,
        "\(q.name)'s \(q.slotsTaken) slot\(q.slotsTaken == 1 ? " is" : "s are") held by "
          + "\(listing(waiting)): started, \(waiting.count == 1 ? "it asks" : "they ask") again for "
          + "the \(waiting.count == 1 ? "lock it" : "locks they") gave back while \(q.name) was "
          + "suspended, and \(listing(holders)), holding \(waiting.count == 1 ? "it" : "them"), "
          + "\(holders.count == 1 ? "waits" : "wait") for a slot.")
    }
  }

  private func listing(_ names: [String]) -> String {
    names.count <= 6
      ? names.joined(separator: ", ")
      : names.prefix(6).joined(separator: ", ") + " and \(names.count - 6) more"
  }
}
