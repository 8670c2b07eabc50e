/// An operation's work, started by the engine and waiting for (or run by) a worker thread of the live
/// runtime. Running it returns the next job the same thread takes over at once, if any: always the
/// oldest waiting one of its QoS level, already taken (see `LiveRuntime.nextJob`).
struct LiveJob: Sendable {
  let run: @Sendable () -> LiveJob?
}

/// The started jobs of one QoS level not yet taken by a worker, oldest first: the order of their
/// `executing` events. Guarded by the runtime's job lock.
struct LiveJobQueue {
  private var items: [LiveJob?] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }
  var count: Int { items.count - head }

  mutating func append(_ job: LiveJob) { items.append(job) }

  /// The oldest waiting job. Taken slots are cleared at once so a job's closure (and what it
  /// captures) is released when it has run, not when the storage is compacted.
  mutating func popFirst() -> LiveJob? {
    guard head < items.count else { return nil }
    let job = items[head]
    items[head] = nil
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 1024 && head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    return job
  }
}
