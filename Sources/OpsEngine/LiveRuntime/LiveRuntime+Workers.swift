import Dispatch
import OpsEvents

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Workers: the runtime's own threads per QoS, fed with jobs under `jobLock`, and a watchdog that
// adds a thread when Dispatch's pool is taken.

extension LiveRuntime {
  // MARK: - Workers

  /// A job waited long enough without any job of its level being taken for Dispatch's pool to be taken
  /// as full (its threads blocked in work, or busy elsewhere): the level gets a new thread.
  static let stallLimit = 0.001

  /// Runs a job's work on the calling worker; returns the next job it takes over, if any.
  func run(_ job: LiveJob) -> LiveJob? {
    let (id, level, ctx) = (job.id, job.level, job.context)
    switch job.work {
    case .sync(let body):
      var errors: [String] = []
      do { try body(ctx) } catch { errors = [String(describing: error)] }
      return workReturned(id, errors: errors, level: level)
    case .async(let body):
      body(ctx) { errors in _ = self.workReturned(id, errors: errors) }
      return nextJob(at: level)
    case .blocks(let blocks):
      let queue = workQueues[level]
      let group = DispatchGroup()
      for block in blocks { queue.async(group: group) { block(ctx) } }
      group.notify(queue: internalQueue) { _ = self.workReturned(id, errors: []) }
      return nextJob(at: level)
    case .none:
      return workReturned(id, errors: [], level: level)
    }
  }

  /// Takes the oldest job waiting at `level` for the calling worker, which calls it at once. Jobs are
  /// taken in the order of their `executing` events: taking is the last thing a worker does under a
  /// lock before the call (any dispatch it has to make is made before), as a job is the last thing a
  /// Foundation worker dequeues before calling it.
  func nextJob(at level: Int) -> LiveJob? {
    jobLock.lock()
    let job = takeWaitingJob(at: level)
    jobLock.unlock()
    return job
  }

  /// The oldest job waiting at `level`, counted as taken (for the watchdog). Under `jobLock`.
  func takeWaitingJob(at level: Int) -> LiveJob? {
    let job = waitingJobs[level].popFirst()
    if job != nil { jobsTaken[level] &+= 1 }
    return job
  }

  /// Runs a worker's jobs: the one it took, then each one it is handed after it. Out of jobs, it
  /// looks for another a few times, giving its core away between looks, before it gives its thread
  /// back to Dispatch: a program adding operations one after another queues the next job a
  /// microsecond or two later, and a worker requested for it costs a dispatch, a wake-up and a
  /// context switch (1,100 to 13,400 requests in 100,000 no-op operations without a limit, 160 to
  /// 1,200 with the looks). Measured in docs/BENCHMARKS.md ("Session 16").
  func work(_ first: LiveJob?, level: Int) {
    var next = first
    while let job = next {
      next = run(job)
      if next == nil { next = lingerForJob(at: level) }
    }
  }

  /// Looks for a job at `level` after each of `workerLooks` yields; nil once it leaves. While it
  /// looks it counts in `lingering`, and it stops counting under the same hold of `jobLock` in which
  /// it found the queue empty for the last time: a job queued after that gets a worker requested.
  func lingerForJob(at level: Int) -> LiveJob? {
    jobLock.lock()
    lingering[level] += 1
    jobLock.unlock()
    for look in 1...Self.workerLooks {
      sched_yield()
      jobLock.lock()
      let job = takeWaitingJob(at: level)
      if job != nil || look == Self.workerLooks { lingering[level] -= 1 }
      jobLock.unlock()
      if job != nil { return job }
    }
    return nil
  }

  /// How many times a worker out of jobs looks for another before it leaves (see `work`).
  static let workerLooks = 8

  /// Whether jobs waiting at a level need a worker requested: more of them than the one a
  /// finishing worker takes over (`reserved`) and one for each worker still looking.
  static func jobsWantAWorker(waiting: Int, reserved: Int, lingering: Int) -> Bool {
    waiting > reserved + lingering
  }

  /// Asks Dispatch for a worker for the jobs waiting at `level`, replacing any request not yet begun.
  /// Normally from the global queue of the level, whose pool has about one thread per core; on a new
  /// thread (a serial queue of its own, which libdispatch backs with an overcommitting thread at once)
  /// when that pool made no progress, rather than waiting the second or so libdispatch takes to add a
  /// thread beside blocked ones. Under `jobLock`; the dispatch is added to `launches`, to be run once
  /// the locks are released.
  func requestWorker(at level: Int, onNewThread: Bool, into launches: inout [Launch]) {
    lastWorkerID &+= 1
    let id = lastWorkerID
    requestedWorker[level] = id
    if onNewThread {
      let qos = DispatchQoS(
        qosClass: QoS.byIndex[level].dispatchQoS, relativePriority: 0)
      launches.append(
        .inline {
          DispatchQueue(label: "opsview.live.worker", qos: qos).async {
            self.workerBegan(at: level, id: id)
          }
        })
    } else {
      launches.append(.async(workQueues[level]) { self.workerBegan(at: level, id: id) })
    }
    if !watchdogArmed { armWatchdog(into: &launches) }
  }

  /// A requested worker has a thread: unless its request was replaced, it requests the next worker if
  /// more than one job waits, then takes the oldest (there may be none left: a finishing worker or the
  /// next worker took it) and runs it and each one it is handed after it.
  func workerBegan(at level: Int, id: Int) {
    jobLock.lock()
    guard requestedWorker[level] == id else {
      jobLock.unlock()
      return
    }
    requestedWorker[level] = 0
    var launching: [Launch] = []
    if waitingJobs[level].count > 1 {
      requestWorker(at: level, onNewThread: false, into: &launching)
    }
    jobLock.unlock()
    for launch in launching { launch.run() }
    work(nextJob(at: level), level: level)
  }

  /// Under `jobLock`.
  func armWatchdog(into launches: inout [Launch]) {
    watchdogArmed = true
    jobsTakenWhenArmed = jobsTaken
    launches.append(.after(internalQueue, Self.stallLimit) { self.watchdogFired() })
  }

  /// Every level whose waiting jobs have not moved since the watchdog was armed gets a worker on a new
  /// thread. Re-armed while jobs wait.
  func watchdogFired() {
    jobLock.lock()
    watchdogArmed = false
    var launching: [Launch] = []
    var waiting = false
    for level in waitingJobs.indices where !waitingJobs[level].isEmpty {
      waiting = true
      // No job taken since it was armed.
      if jobsTaken[level] == jobsTakenWhenArmed[level] {
        requestWorker(at: level, onNewThread: true, into: &launching)
      }
    }
    if waiting && !watchdogArmed { armWatchdog(into: &launching) }
    jobLock.unlock()
    for launch in launching { launch.run() }
  }
}

/// A dispatch decided under the engine lock, performed after it is released.
enum Launch {
  case async(DispatchQueue, @Sendable () -> Void)
  case after(DispatchQueue, Double, @Sendable () -> Void)
  case inline(@Sendable () -> Void)

  func run() {
    switch self {
    case .async(let queue, let body): queue.async(execute: body)
    case .after(let queue, let delay, let body):
      queue.asyncAfter(deadline: .now() + delay, execute: body)
    case .inline(let body): body()
    }
  }
}

extension QoS {
  static let byIndex: [QoS] = [
    .userInteractive, .userInitiated, .utility, .background, .default,
  ]

  var index: Int {
    switch self {
    case .userInteractive: 0
    case .userInitiated: 1
    case .utility: 2
    case .background: 3
    case .default: 4
    }
  }

  var dispatchQoS: DispatchQoS.QoSClass {
    switch self {
    case .userInteractive: .userInteractive
    case .userInitiated: .userInitiated
    case .utility: .utility
    case .background: .background
    case .default: .default
    }
  }
}
