import DequeModule
import OpsEvents

/// An operation's work, started by the engine and waiting for (or run by) a worker thread of the live
/// runtime (`LiveRuntime.run`). Running it returns the next job the same thread takes over at once, if
/// any: always the oldest waiting one of its QoS level, already taken (see `LiveRuntime.nextJob`).
/// Plain data rather than a closure: a closure capturing all this was an allocation per operation
/// under the engine lock.
struct LiveJob: Sendable {
  let id: Int
  /// The QoS index of the workers that take it.
  let level: Int
  let work: LiveWork
  let context: WorkContext
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
