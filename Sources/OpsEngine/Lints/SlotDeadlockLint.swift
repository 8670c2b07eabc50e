import OpsEvents

/// ProcedureKit's suspension deadlock (SEMANTICS X10): operations a queue started after it was
/// resumed hold all its slots, each asking again for a lock that a ready operation of the same queue
/// holds, and that one waits for a slot. Nothing in the queue can move.
public struct SlotDeadlockLint: Lint {
  public var kind: String { "slotDeadlock" }
  /// A reclaimer starts waiting, or a start, a finish or a limit frees or fills a slot.
  public var eventTypes: Set<EventType>? { [.exclusivityWaiting, .state, .queueMaxConcurrent] }
  public var summary: String {
    "a queue's slots are held by operations waiting for locks that a ready one holds"
  }
  public var teaching: String { "Raising the queue's limit lets the ready one start." }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard p.reclaimingCount > 0 else { return }
    for q in p.queues where q.reclaiming > 0 && q.executing == 0 && q.isAtLimit {
      // Rare: a scan of the operations is fine here, and the live runtime's fold keeps no members.
      var holders: [String] = []
      var waiting: [String] = []
      var stuck = true
      for op in p.operations where op.queue == q.name && op.reclaiming {
        guard let lock = op.waitingForLock, let h = p.lockHolders[lock.category],
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
      out.raise(
        q.name,
        "\(q.name)'s \(q.slotsTaken) slots are held by \(listing(waiting)): started, they ask again "
          + "for the locks they gave back while \(q.name) was suspended, and \(listing(holders)), "
          + "holding them, \(holders.count == 1 ? "waits" : "wait") for a slot.")
    }
  }

  private func listing(_ names: [String]) -> String {
    names.count <= 6
      ? names.joined(separator: ", ")
      : names.prefix(6).joined(separator: ", ") + " and \(names.count - 6) more"
  }
}
