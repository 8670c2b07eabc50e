import DequeModule

/// An operation's work, started by the engine and waiting for (or run by) a worker thread of the live
/// runtime. Running it returns the next job the same thread takes over at once, if any: always the
/// oldest waiting one of its QoS level, already taken (see `LiveRuntime.nextJob`).
struct LiveJob: Sendable {
  let run: @Sendable () -> LiveJob?
}

/// The started jobs of one QoS level not yet taken by a worker, oldest first: the order of their
/// `executing` events. Guarded by the runtime's job lock.
struct LiveJobQueue {
  // A ring buffer: a job taken is released at once (and what its closure captures) when it has run.
  private var items = Deque<LiveJob>()

  var isEmpty: Bool { items.isEmpty }
  var count: Int { items.count }

  mutating func append(_ job: LiveJob) { items.append(job) }

  /// The oldest waiting job.
  mutating func popFirst() -> LiveJob? { items.popFirst() }
}
