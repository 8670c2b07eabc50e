import DequeModule
import Dispatch
import HeapModule
import OpsEvents

/// The engine on real threads: work is closures run by Dispatch, time is the wall clock (monotonic
/// seconds since the runtime was created). Thread-safe: every call may come from any thread, including
/// from work closures and event subscribers.
///
/// One lock guards the state machine; each public call takes it, runs the core, and releases it. Events
/// are buffered under the lock and delivered in order, none dropped, on a private serial queue, never
/// while the lock is held (a subscriber may call back into the runtime).
///
/// This file holds the state, the public API and the step (lock, run the core, unlock); each other
/// job has its own file: `+Delivery` (events to lints and subscribers), `+Workers` (the thread pool
/// and its watchdog), `+Pacing` (holding back a thread that adds far ahead), `+Retirement`
/// (forgetting finished operations) and `+Host` (the core's callbacks and returning work).
public final class LiveRuntime: @unchecked Sendable {
  // MARK: State guarded by `lock`
  // `@exclusivity(unchecked)`: the lock already serialises every access, and the runtime's dynamic
  // exclusivity checks were a fifth of the engine's instructions.

  /// With a condition variable, so `waitUntilFinished` can block on the same lock.
  let lock = EngineLock()
  @exclusivity(unchecked) var core: EngineCore!
  /// Indexed by operation id (the core numbers operations densely from 0).
  /// Each operation's work until it starts and its context while it runs, by id.
  @exclusivity(unchecked) var workTable = LiveWorkTable()
  @exclusivity(unchecked) var conditionClosures: [Int: [String: LiveCondition]] = [:]
  /// The core appends each event here (its `sink`), in the step that made it.
  let buffer = EventBuffer(roomAfterGrowth: LiveRuntime.backlogRoom)
  @exclusivity(unchecked) var subscribers: [LiveSubscriber] = []
  @exclusivity(unchecked) var drainScheduled = false
  /// Enqueued operations not yet finished (for `waitUntilFinished()` and pacing an adder).
  var unfinished: Int { core.unfinished }
  @exclusivity(unchecked) var waitingForAll = 0
  @exclusivity(unchecked) var waitingForSome = 0
  /// Adding threads waiting in `pace` for the unfinished operations to fall to `paceLow`.
  @exclusivity(unchecked) var pacedAdders = 0
  /// Whether the paced adders were woken already: a woken one counts in `pacedAdders` until it
  /// has the lock again, and every step that finished something meanwhile broadcast again.
  @exclusivity(unchecked) var pacedAddersWoken = false
  /// `core.finishedCount` below which an adding thread does not pace: set when a wait ran out
  /// before the work caught up (a suspended queue, long work), so that costs one wait, not one per
  /// operation added.
  @exclusivity(unchecked) var paceAgainAt = 0
  /// Pacing waits that ran out (tests).
  @exclusivity(unchecked) var paceTimeouts = 0
  /// The time of the current step's events.
  @exclusivity(unchecked) var stepTime = 0.0
  /// Dispatches decided during the current step, performed once the lock is released.
  @exclusivity(unchecked) var launches: [Launch] = []

  /// Finished operations not yet retired, oldest first (ids).
  @exclusivity(unchecked) var finishedOrder = Deque<Int>()
  /// The operations that finished in the step being ended (`EngineCore.finishedLog`, swapped out).
  @exclusivity(unchecked) var finishedInStep: [Int] = []
  /// Finished operations looked at while fewer than `kept` operations were created after them, by
  /// id: each is tried again once it is old enough, not at every step.
  @exclusivity(unchecked) var tooRecent = Heap<Int>()
  let retention: LiveRetention
  /// Names of operations retired since the last drain, for the lints' projection to forget them too
  /// once their events are published (only when it folds: with lints).
  @exclusivity(unchecked) var retiredNames: [RetiredName] = []
  /// Records retired since the last drain, freed by the drain after its batch (freeing a record and
  /// its spec is a dozen deallocations the engine's threads need not do).
  @exclusivity(unchecked) var retiredRecords: [OperationRecord] = []
  let lintsForget: Bool
  /// Succeeded operations the lints forget before the retention does (see `LintsForgetting`).
  @exclusivity(unchecked) var lintsForgetting = LintsForgetting()

  /// The jobs started in the current step, by QoS index, in the order of their `executing` events.
  @exclusivity(unchecked) var startedJobs: [LiveJob] = []

  // MARK: Workers, guarded by `jobLock`
  // A started operation's work is not given to Dispatch directly: at the end of the step that published
  // its `executing` event it joins the jobs waiting at its QoS level, and worker threads take them
  // strictly oldest first (see `requestWorker`). So work is taken in the order of the `executing`
  // events, as in Foundation, where a queue's operations are dequeued in the order they were handed to
  // its Dispatch queue; on both, two works taken by two threads at once can still begin in either
  // order. A lock of their own: a worker taking a job does not wait behind an engine step.

  let jobLock = EngineLock()
  /// Started jobs no worker has taken yet, by QoS index, oldest first.
  @exclusivity(unchecked) var waitingJobs = Array(
    repeating: LiveJobQueue(), count: QoS.byIndex.count)
  /// By QoS index: the worker requested from Dispatch that has not begun yet (0: none). Whenever jobs
  /// wait at a level, a worker is requested for it.
  @exclusivity(unchecked) var requestedWorker = Array(
    repeating: 0, count: QoS.byIndex.count)
  @exclusivity(unchecked) var lastWorkerID = 0
  /// By QoS index: workers that ran out of jobs and look for another before they leave (see
  /// `work`). Each will take one job queued meanwhile, so no worker is requested for it.
  @exclusivity(unchecked) var lingering = Array(
    repeating: 0, count: QoS.byIndex.count)
  /// By QoS index: how many jobs workers have taken. The watchdog sees a level make no progress from it.
  @exclusivity(unchecked) var jobsTaken = Array(
    repeating: 0, count: QoS.byIndex.count)
  @exclusivity(unchecked) var watchdogArmed = false
  /// `jobsTaken` when the watchdog was armed.
  @exclusivity(unchecked) var jobsTakenWhenArmed = Array(
    repeating: 0, count: QoS.byIndex.count)

  // MARK: Immutable

  /// Guards the cancellation flags of work contexts (kept apart from the engine lock: work polls it).
  let flagLock = EngineLock()
  let origin = DispatchTime.now().uptimeNanoseconds
  let delivery = DispatchQueue(label: "opsview.live.events")
  /// Numbers, folds and lints the events; used only on `delivery`.
  let publisher: EventPublisher<LiveRuntime>
  /// On `delivery`: the subscribers of the batch being published and the core number of its event.
  @exclusivity(unchecked) var publishingTo: [LiveSubscriber] = []
  @exclusivity(unchecked) var publishingRawSeq = 0
  /// The subscriber when there is only one (the usual case), called directly and unretained
  /// (`publishingTo` holds it): through the list, and through a reference read from a property,
  /// each event retained and released the list and the subscriber.
  @exclusivity(unchecked) var publishingToOnly: Unmanaged<LiveSubscriber>?
  /// On `delivery`: the records taken from `retiredRecords` by the batch being published.
  @exclusivity(unchecked) var recordsToFree: [OperationRecord] = []
  /// On `delivery`: the storage of the batch being published, empty between drains (see `drain`).
  let deliveryBatch = EventBuffer(roomAfterGrowth: LiveRuntime.backlogRoom)
  /// The engine's own callbacks (timers, scripted conditions, completions) are short and must not wait
  /// behind blocked work: a serial queue is overcommitting, so it always gets a thread.
  let internalQueue = DispatchQueue(label: "opsview.live.engine")
  let onDelivery = DispatchSpecificKey<Bool>()
  /// Dispatch's global queues, by `QoS.index`.
  let workQueues = QoS.byIndex.map {
    DispatchQueue.global(qos: $0.dispatchQoS)
  }

  /// `lints`: what is checked and published as `warning` events, on the delivery queue (none: `[]`).
  /// `retention`: how many finished operations stay known by name (see `LiveRetention`).
  public init(lints: [any Lint] = Lints.standard, retention: LiveRetention = .standard) {
    self.retention = retention
    // The lints' own fold: no history of visits, member sets or dependents (no standard lint reads
    // them).
    publisher = EventPublisher(
      lints: lints, folds: false, keepsHistory: false, keepsMembers: false, keepsDependents: false)
    lintsForget = publisher.isFolding
    delivery.setSpecific(key: onDelivery, value: true)
    core = EngineCore(host: self, sink: buffer)
    if retention.finishedKept != nil { core.finishedLog = [] }
    publisher.deliver(to: self)
    publisher.scheduleWake = { [unowned(unsafe) self] time, token in
      let delay = max(0, time - secondsSinceOrigin())
      delivery.asyncAfter(deadline: .now() + delay) { [self] in
        lock.lock()
        setPublishingTo(subscribers)
        publishingRawSeq = core.seq
        lock.unlock()
        publisher.delivers = !publishingTo.isEmpty
        publisher.wake(at: secondsSinceOrigin(), token: token)
      }
    }
  }

  /// Monotonic seconds since the runtime was created: the clock of its events.
  public var elapsed: Double { secondsSinceOrigin() }

  func secondsSinceOrigin() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1_000_000_000
  }

  /// Runs one step of the state machine under the lock. What the step decided to dispatch (work, timers,
  /// delivery) is dispatched after the lock is released: waking a thread is a system call, and doing it
  /// inside the critical section made every other thread wait for it.
  func withCore<T>(_ body: (EngineCore) throws -> T) rethrows -> T {
    beginStep()
    do {
      let result = try body(core)
      endStep()
      return result
    } catch {
      endStep()
      throw error
    }
  }

  /// Takes the lock and reads the clock once: every event of a step carries the same time.
  func beginStep() {
    lock.lock()
    stepTime = secondsSinceOrigin()
    core.stepTime = stepTime
  }

  /// Queues the jobs started in the step, wakes waiters, releases the lock, then dispatches. A worker
  /// that just finished an operation at QoS level `handOff` takes over the oldest job waiting at that
  /// level (returned) instead of waking another thread for it: a worker is requested only for the jobs
  /// after that one, and the job is taken last, once the locks are released and the dispatches done, so
  /// nothing that can block lies between taking it and calling it (see `nextJob`).
  @discardableResult
  func endStep(handOff handOffLevel: Int? = nil) -> LiveJob? {
    if !startedJobs.isEmpty {
      jobLock.lock()
      var levels: UInt8 = 0
      for job in startedJobs {
        waitingJobs[job.level].append(job)
        levels |= 1 << job.level
      }
      startedJobs.clearKeepingCapacity()
      while levels != 0 {
        let level = levels.trailingZeroBitCount
        levels &= levels - 1
        let reserved = level == handOffLevel ? 1 : 0
        if requestedWorker[level] == 0
          && Self.jobsWantAWorker(
            waiting: waitingJobs[level].count, reserved: reserved, lingering: lingering[level])
        {
          requestWorker(at: level, onNewThread: false, into: &launches)
        }
      }
      jobLock.unlock()
    }
    if core.finishedSinceCleared {
      core.clearFinished()
      if let kept = retention.finishedKept { retireFinished(keeping: kept) }
      let wakePacedAdders = pacedAdders > 0 && !pacedAddersWoken && unfinished <= Self.paceLow
      if wakePacedAdders { pacedAddersWoken = true }
      if (waitingForAll > 0 && unfinished == 0) || waitingForSome > 0 || wakePacedAdders {
        lock.broadcast()
      }
    }
    let startDrain = !buffer.isEmpty && !drainScheduled
    if startDrain { drainScheduled = true }
    let backlogged = buffer.count > Self.backlogLimit
    var launching: [Launch] = []
    if !launches.isEmpty { swap(&launching, &launches) }
    lock.unlock()
    for launch in launching { launch.run() }
    // A short delay gathers events into larger batches: the delivery thread then takes the lock once per
    // batch instead of competing for it at every step.
    if startDrain { delivery.asyncAfter(deadline: .now() + .microseconds(200)) { self.drain() } }
    if backlogged { flushDeliveries() }
    return handOffLevel.map(nextJob(at:)) ?? nil
  }

  // MARK: - Building

  public func addQueue(_ spec: QueueSpec) throws { try withCore { _ = try $0.addQueue(spec) } }

  /// Declares an operation (in `initialized`) with its work and the closures deciding its scripted
  /// conditions, by condition name (a condition without one uses its `check`). Dependencies named in the
  /// spec must already be declared; `addDependency` links in any order. `on:` also enqueues it.
  ///
  /// The spec's `work` script only informs the events (`work` is shown as the expected duration); the kind
  /// follows the closure (`.async` → async, `.blocks` → block operation).
  ///
  /// A thread adding far ahead of the work (more than 1,024 operations unfinished) may be held back
  /// for up to a couple of milliseconds while the work catches up, and beyond 2,048 until the events
  /// so far are delivered; never until operations run, so adding to a suspended queue goes on.
  public func addOperation(
    _ spec: consuming OperationSpec, work: LiveWork, conditions: [String: LiveCondition] = [:],
    on queue: String? = nil
  ) throws {
    switch work {
    case .async: spec.isAsync = true
    case .blocks(let blocks) where spec.work.blocks.isEmpty:
      spec.work.blocks = Array(repeating: spec.work.duration, count: blocks.count)
    default: break
    }
    // The record is built and its numbers checked before the lock is taken (~550 instructions an
    // operation less under it); the core numbers it in the step. Not `withCore`: a closure would
    // capture the record.
    let validated = (try? EngineCore.validate(spec)) != nil
    let record = OperationRecord(id: -1, spec: spec)
    beginStep()
    defer {
      let crowded = unfinished > Self.crowdedAt && core.finishedCount >= paceAgainAt
      let farAhead = unfinished > Self.farAheadAt
      endStep()
      // An adding thread far ahead of the work only grows the unfinished records (the memory of
      // the run) and takes cores and the engine lock from the threads running and publishing
      // that work. It sleeps until the work has caught up halfway, briefly (`pace`). Where the
      // work does not catch up, it waits for delivery (or delivers itself, if the delivery queue
      // is idle): the lints' fold then sets the pace of adding. Never a wait for operations to
      // run, so adding to a suspended queue goes on.
      if crowded { pace() }
      if farAhead { flushDeliveries() }
    }
    // Each dependency looked up once, before anything is created (an unknown one is refused).
    var dependencies = IDList()
    for name in record.spec.dependencies {
      guard let dep = core.operation(named: name) else {
        throw EngineError.unknownOperation(name)
      }
      dependencies.append(dep.id)
    }
    let q = try queue.map { name in
      guard let q = core.queue(named: name) else { throw EngineError.unknownQueue(name) }
      return q
    }
    let op = try core.createOperation(adopting: record, validated: validated)
    precondition(op.id == workTable.nextID, "live runtime and core disagree on operation ids")
    workTable.append(work)
    if !conditions.isEmpty { conditionClosures[op.id] = conditions }
    core.linkDeclared(op, count: dependencies.count) { core.ops[dependencies[$0]] }
    if let q { try core.enqueue(op, on: q) }
  }

  /// Adds a declared operation to a queue.
  public func enqueue(_ operation: String, on queue: String) throws {
    try withCore { core in
      guard let op = core.operation(named: operation) else {
        throw EngineError.unknownOperation(operation)
      }
      guard let q = core.queue(named: queue) else { throw EngineError.unknownQueue(queue) }
      try core.enqueue(op, on: q)
    }
  }

  /// Adds a dependency after declaration (reported as `dependencyAdded` if the operation is on a queue).
  public func addDependency(_ operation: String, on dependency: String) throws {
    try withCore { try $0.addDependency(named: operation, on: dependency) }
  }

  // MARK: - Commands

  /// Applies a command now (cancel, cancelAll, suspend, resume, maxConcurrent).
  @discardableResult
  public func perform(_ command: Command, source: CommandSource = .api) -> CommandOutcome {
    withCore { $0.perform(command, source: source) }
  }

  // MARK: - Waiting

  /// Blocks until the named operations (all enqueued ones when nil) have finished and every event
  /// published by then has reached the subscribers, or until `timeout` seconds pass. False on timeout
  /// or when a name is unknown. Do not call it from a subscriber: delivery cannot progress meanwhile.
  /// A NaN or negative timeout does not wait; one longer than `maxTimeout` (or infinite) waits that long.
  public func waitUntilFinished(_ operations: [String]? = nil, timeout: Double) -> Bool {
    let deadline = EngineLock.deadline(after: Self.clampedTimeout(timeout))
    lock.lock()
    let targets = operations.map { $0.map { core.operation(named: $0) } }
    if let targets, targets.contains(where: { $0 == nil }) {
      lock.unlock()
      return false
    }
    let done = {
      targets.map { $0.allSatisfy { $0!.state == .finished } } ?? (self.unfinished == 0)
    }
    if operations == nil { waitingForAll += 1 } else { waitingForSome += 1 }
    var finished = done()
    while !finished && lock.wait(until: deadline) { finished = done() }
    finished = finished || done()
    if operations == nil { waitingForAll -= 1 } else { waitingForSome -= 1 }
    lock.unlock()
    if finished { flushDeliveries() }
    return finished
  }

  /// The longest wait, in seconds (about 31 years): a longer one could not be expressed as a deadline.
  public static let maxTimeout = EngineCore.maxSeconds

  static func clampedTimeout(_ timeout: Double) -> Double {
    guard timeout > 0 else { return 0 }  // also NaN
    return min(timeout, maxTimeout)
  }

  /// Returns once every event published so far has been delivered (a no-op on the delivery queue).
  public func flushDeliveries() {
    guard DispatchQueue.getSpecific(key: onDelivery) == nil else { return }
    // Drains here rather than waiting for the scheduled drain, which may not be queued yet.
    delivery.sync { drain() }
  }

  // MARK: - Queries

  public func state(of operation: String) -> OperationState? {
    withCore { $0.operation(named: operation)?.state }
  }
  public func isCancelled(_ operation: String) -> Bool {
    withCore { $0.operation(named: operation)?.cancelled ?? false }
  }
  public func errors(of operation: String) -> [String] {
    withCore { $0.operation(named: operation)?.errors ?? [] }
  }
  public func flags(of operation: String) -> OperationFlags? {
    withCore { core in
      core.operation(named: operation).map {
        OperationFlags(state: $0.state, cancelled: $0.cancelled)
      }
    }
  }
  /// Foundation's `operationCount`: operations in the queue that have not finished.
  public func operationCount(of queue: String) -> Int {
    withCore { $0.queue(named: queue)?.members.count ?? 0 }
  }
  public func executingCount(of queue: String) -> Int {
    withCore { $0.queue(named: queue)?.executing ?? 0 }
  }
}
