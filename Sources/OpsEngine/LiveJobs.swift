#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An operation's work, started by the engine and waiting for (or run by) a worker thread of the live
/// runtime. Running it returns the next job the same thread takes over at once, if any: always the
/// oldest waiting one of its QoS level.
struct LiveJob: Sendable {
  let run: @Sendable () -> TakenJob?
}

/// A job a worker took, with its place in the order in which the jobs of its level were taken: the
/// worker calls it only once every job taken before it has been called (`LiveRuntime.waitForTurn`).
struct TakenJob {
  let job: LiveJob
  let level: Int
  let turn: Int
}

/// The started jobs of one QoS level not yet taken by a worker, oldest first: the order of their
/// `executing` events. Guarded by the runtime's job lock.
struct LiveJobQueue {
  private var items: [LiveJob?] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }

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

/// Lets another thread run, for a worker waiting its turn behind one that took a job just before it:
/// the first few times only yields the core (the wait is usually a matter of microseconds), then sleeps
/// briefly, so waiting threads never keep the cores from the one they wait for.
func pauseThread(attempt: Int) {
  if attempt < 3 {
    sched_yield()
  } else {
    usleep(20)
  }
}
