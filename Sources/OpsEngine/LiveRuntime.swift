import DequeModule
import Dispatch
import HeapModule

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The engine on real threads: work is closures run by Dispatch, time is the wall clock (monotonic
/// seconds since the runtime was created). Thread-safe: every call may come from any thread, including
/// from work closures and event subscribers.
///
/// One lock guards the state machine; each public call takes it, runs the core, and releases it. Events
/// are buffered under the lock and delivered in order, none dropped, on a private serial queue, never
/// while the lock is held (a subscriber may call back into the runtime).
public final class LiveRuntime: @unchecked Sendable {
  // MARK: State guarded by `lock`
  // `@exclusivity(unchecked)`: the lock already serialises every access, so the dynamic checks
  // would only add work to every step.

  /// With a condition variable, so `waitUntilFinished` can block on the same lock.
  private let lock = EngineLock()
  @exclusivity(unchecked) private var core: EngineCore!
  /// Indexed by operation id (the core numbers operations densely from 0).
  /// Each operation's work until it starts and its context while it runs, by id.
  @exclusivity(unchecked) private var slots = LiveSlots()
  @exclusivity(unchecked) private var conditionClosures: [Int: [String: LiveCondition]] = [:]
  /// The core appends each event here (its `sink`), in the step that made it.
  private let buffer = EventBuffer(roomAfterGrowth: LiveRuntime.backlogRoom)
  @exclusivity(unchecked) private var subscribers: [LiveSubscriber] = []
  @exclusivity(unchecked) private var drainScheduled = false
  /// Enqueued operations not yet finished (for `waitUntilFinished()` and pacing an adder).
  private var unfinished: Int { core.unfinished }
  @exclusivity(unchecked) private var waitingForAll = 0
  @exclusivity(unchecked) private var waitingForSome = 0
  /// Adding threads waiting in `pace` for the unfinished operations to fall to `paceLow`.
  @exclusivity(unchecked) private var pacedAdders = 0
  /// Whether the paced adders were woken already: a woken one counts in `pacedAdders` until it
  /// has the lock again, and every step that finished something meanwhile broadcast again.
  @exclusivity(unchecked) private var pacedAddersWoken = false
  /// `core.finishedCount` below which an adding thread does not pace: set when a wait ran out
  /// before the work caught up (a suspended queue, long work), so that costs one wait, not one per
  /// operation added.
  @exclusivity(unchecked) private var paceAgainAt = 0
  /// Pacing waits that ran out (tests).
  @exclusivity(unchecked) private var paceTimeouts = 0
  /// The time of the current step's events.
  @exclusivity(unchecked) private var stepTime = 0.0
  /// Dispatches decided during the current step, performed once the lock is released.
  @exclusivity(unchecked) private var launches: [Launch] = []

  /// Finished operations not yet retired, oldest first (ids).
  @exclusivity(unchecked) private var finishedOrder = Deque<Int>()
  /// The operations that finished in the step being ended (`EngineCore.finishedLog`, swapped out).
  @exclusivity(unchecked) private var finishedInStep: [Int] = []
  /// Finished operations looked at while fewer than `kept` operations were created after them, by
  /// id: each is tried again once it is old enough, not at every step.
  @exclusivity(unchecked) private var tooRecent = Heap<Int>()
  private let retention: LiveRetention
  /// Names of operations retired since the last drain, for the lints' projection to forget them too
  /// once their events are published (only when it folds: with lints).
  @exclusivity(unchecked) private var retiredNames: [RetiredName] = []
  /// Records retired since the last drain, freed by the drain after its batch (freeing a record and
  /// its spec is a dozen deallocations the engine's threads need not do).
  @exclusivity(unchecked) private var retiredRecords: [OperationRecord] = []
  private let lintsForget: Bool
  /// Succeeded operations the lints forget before the retention does (see `LintsForgetting`).
  @exclusivity(unchecked) private var lintsForgetting = LintsForgetting()

  /// The jobs started in the current step, by QoS index, in the order of their `executing` events.
  @exclusivity(unchecked) private var startedJobs: [LiveJob] = []

  // MARK: Workers, guarded by `jobLock`
  // A started operation's work is not given to Dispatch directly: at the end of the step that published
  // its `executing` event it joins the jobs waiting at its QoS level, and worker threads take them
  // strictly oldest first (see `requestWorker`). So work is taken in the order of the `executing`
  // events, as in Foundation, where a queue's operations are dequeued in the order they were handed to
  // its Dispatch queue; on both, two works taken by two threads at once can still begin in either
  // order. A lock of their own: a worker taking a job does not wait behind an engine step.

  private let jobLock = EngineLock()
  /// Started jobs no worker has taken yet, by QoS index, oldest first.
  @exclusivity(unchecked) private var waitingJobs = Array(
    repeating: LiveJobQueue(), count: QualityOfService.byIndex.count)
  /// By QoS index: the worker requested from Dispatch that has not begun yet (0: none). Whenever jobs
  /// wait at a level, a worker is requested for it.
  @exclusivity(unchecked) private var requestedWorker = Array(
    repeating: 0, count: QualityOfService.byIndex.count)
  @exclusivity(unchecked) private var lastWorkerID = 0
  /// By QoS index: workers that ran out of jobs and look for another before they leave (see
  /// `work`). Each will take one job queued meanwhile, so no worker is requested for it.
  @exclusivity(unchecked) private var lingering = Array(
    repeating: 0, count: QualityOfService.byIndex.count)
  /// By QoS index: how many jobs workers have taken. The watchdog sees a level make no progress from it.
  @exclusivity(unchecked) private var jobsTaken = Array(
    repeating: 0, count: QualityOfService.byIndex.count)
  @exclusivity(unchecked) private var watchdogArmed = false
  /// `jobsTaken` when the watchdog was armed.
  @exclusivity(unchecked) private var jobsTakenWhenArmed = Array(
    repeating: 0, count: QualityOfService.byIndex.count)

  // MARK: Immutable

  /// Guards the cancellation flags of work contexts (kept apart from the engine lock: work polls it).
  let flagLock = EngineLock()
  private let origin = DispatchTime.now().uptimeNanoseconds
  private let delivery = DispatchQueue(label: "opsview.live.events")
  /// Numbers, folds and lints the events; used only on `delivery`.
  private let publisher: EventPublisher<LiveRuntime>
  /// On `delivery`: the subscribers of the batch being published and the core number of its event.
  @exclusivity(unchecked) private var publishingTo: [LiveSubscriber] = []
  @exclusivity(unchecked) private var publishingRawSeq = 0
  /// The subscriber when there is only one (the usual case), called directly and unretained
  /// (`publishingTo` holds it): through the list, and through a reference read from a property,
  /// each event retained and released the list and the subscriber.
  @exclusivity(unchecked) private var publishingToOnly: Unmanaged<LiveSubscriber>?
  /// On `delivery`: the records taken from `retiredRecords` by the batch being published.
  @exclusivity(unchecked) private var recordsToFree: [OperationRecord] = []
  /// On `delivery`: the storage of the batch being published, empty between drains (see `drain`).
  private let deliveryBatch = EventBuffer(roomAfterGrowth: LiveRuntime.backlogRoom)
  /// The engine's own callbacks (timers, scripted conditions, completions) are short and must not wait
  /// behind blocked work: a serial queue is overcommitting, so it always gets a thread.
  private let internalQueue = DispatchQueue(label: "opsview.live.engine")
  private let onDelivery = DispatchSpecificKey<Bool>()
  /// Dispatch's global queues, by `QualityOfService.index`.
  private let workQueues = QualityOfService.byIndex.map {
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

  private func secondsSinceOrigin() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1_000_000_000
  }

  /// Runs one step of the state machine under the lock. What the step decided to dispatch (work, timers,
  /// delivery) is dispatched after the lock is released: waking a thread is a system call, and doing it
  /// inside the critical section made every other thread wait for it.
  private func withCore<T>(_ body: (EngineCore) throws -> T) rethrows -> T {
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
  private func beginStep() {
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
  private func endStep(handOff handOffLevel: Int? = nil) -> LiveJob? {
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

  /// Each event of the core (only ever within a step, under the lock), buffered for delivery. The
  /// core appends to the buffer itself (its `sink`), so this is not called; the core counts
  /// unfinished operations and says when one finished (`EngineCore.unfinished`), so nothing here
  /// reads the event.
  func record(_ event: consuming Event) {
    // Always published (folded and linted), so sequence numbers and warnings do not depend on when
    // someone subscribed.
    buffer.append(event)
  }

  /// Retires the oldest finished operations beyond `kept`, once the step is over (the core may still
  /// read an operation during the step that finished it). One that cannot be retired yet (a
  /// dependent has not finished) goes to the back, to be tried again later. Under the lock.
  private func retireFinished(keeping kept: Int) {
    // Taken in exchange for the emptied list of the last step: each read of the core's list
    // retained and released it.
    swap(&finishedInStep, &core.finishedLog!)
    if lintsForget {
      lintsForgetting.step(finished: finishedInStep, in: core, names: &retiredNames)
    }
    finishedOrder += finishedInStep
    finishedInStep.clearKeepingCapacity()
    // Only operations with at least `kept` created after them: a program names the operations it
    // just added (as dependencies), and those stay known however fast they finish. One too recent
    // waits in `tooRecent` until it is old enough, rather than being tried again at every step.
    let oldEnough = core.ops.count - kept
    while let id = tooRecent.min, id < oldEnough {
      tooRecent.removeMin()
      retireOrPostpone(id)
    }
    // At most 64 a step: operations that wait for a dependent are not all looked at in every step.
    for _ in 0..<max(0, min(finishedOrder.count - kept, 64)) {
      let id = finishedOrder.removeFirst()
      if id < oldEnough { retireOrPostpone(id) } else { tooRecent.insert(id) }
    }
  }

  /// Retires a finished operation old enough to go, or puts it at the back of the line if it cannot
  /// go yet (a dependent has not finished). Under the lock.
  private func retireOrPostpone(_ id: Int) {
    guard core.isRetirable(id) else {
      finishedOrder.append(id)
      return
    }
    if lintsForget && !core.retireHints[id].forgottenByLints {
      retiredNames.append(RetiredName(core.ops[id]))
    }
    retiredRecords.append(core.retire(id))
    slots.retired(id)
    if !conditionClosures.isEmpty { conditionClosures[id] = nil }
  }

  /// On `delivery`: the subscribers of the batch about to be published.
  private func setPublishingTo(_ subs: [LiveSubscriber]) {
    publishingTo = subs
    publishingToOnly = subs.count == 1 ? Unmanaged.passUnretained(subs[0]) : nil
  }

  /// Delivers buffered events in order on the delivery queue, batch by batch, outside the lock.
  /// Operations retired while the batch's events were buffered are forgotten by the lints after it:
  /// every event about them is in the batch or an earlier one.
  private func drain() {
    // The batch is kept between drains (emptied, with its capacity), so the buffer it is swapped
    // with does not grow again from nothing, reallocated and page-faulted, at every drain.
    let batch = deliveryBatch
    var retired: [RetiredName] = []
    while true {
      lock.lock()
      if buffer.isEmpty {
        drainScheduled = false
        lock.unlock()
        return
      }
      batch.swapContents(with: buffer)
      if !retiredNames.isEmpty { swap(&retired, &retiredNames) }
      // Exchanged, so the engine's list keeps the room this one had: no allocation under the lock.
      if !retiredRecords.isEmpty { swap(&recordsToFree, &retiredRecords) }
      let subs = subscribers
      lock.unlock()
      setPublishingTo(subs)
      publisher.delivers = !subs.isEmpty
      // Each event moved out to the publisher: publishing a borrowed one copied it.
      batch.drain { event, hint in
        publishingRawSeq = event.seq
        publisher.publish(event, slotHint: hint, rescheduling: false)
      }
      if !retired.isEmpty {
        publisher.retire(operations: retired)
        retired.removeAll(keepingCapacity: true)
      }
      // Freed here rather than on a queue of their own: a batch handed to a global queue every 64
      // retirements woke a thread for it (one more thread wanting the cores).
      recordsToFree.removeAll(keepingCapacity: true)
      publisher.rescheduleWake()
    }
  }

  /// Events published by the engine and not yet taken for delivery (tests: the backlog's bound).
  var undeliveredEvents: Int {
    lock.lock()
    defer { lock.unlock() }
    return buffer.count
  }

  /// Per-operation slots still held (tests: they follow the operations in flight).
  var keptSlots: Int { withCore { _ in slots.kept } }

  /// Retired records not yet freed (tests: the next drain frees them).
  var retiredRecordsHeld: Int { withCore { _ in retiredRecords.count } }

  /// Chunks of the core's records still held, and all there have been (tests: retired ones go).
  var recordChunks: (held: Int, all: Int) {
    withCore { core in (core.ops.heldChunks, core.ops.chunks.count) }
  }

  /// The lints' projection (tests: what it still holds). On the delivery queue.
  var lintProjection: Projection { delivery.sync { publisher.projection } }

  // MARK: - Events

  /// Receives every event published from now on, in order, on a private serial queue.
  public func subscribe(_ handler: @escaping @Sendable (Event) -> Void) {
    withCore { core in subscribers.append(LiveSubscriber(from: core.seq + 1, handler: handler)) }
  }

  /// The number of events published so far, warnings included (waits for delivery to catch up).
  public var eventCount: Int {
    if DispatchQueue.getSpecific(key: onDelivery) != nil { return publisher.seq }
    flushDeliveries()
    return delivery.sync { publisher.seq }
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
    // The record is built and its numbers checked before the lock is taken, so that work is not
    // held under it; the core numbers it in the step. Not `withCore`: a closure would capture the
    // record.
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
    precondition(op.id == slots.nextID, "live runtime and core disagree on operation ids")
    slots.append(work)
    if !conditions.isEmpty { conditionClosures[op.id] = conditions }
    core.linkDeclared(op, count: dependencies.count) { core.ops[dependencies[$0]] }
    if let q { try core.enqueue(op, on: q) }
  }

  /// Undelivered events above which the thread that ran a step waits for delivery to catch up, once
  /// the lock is released. Without it a program adding faster than subscribers consume buffers every
  /// event of the run (1M operations: 9M events), and so did workers running operations already
  /// added while the lints' delivery lagged (100k operations: ~45 MB of events at once); with it the
  /// buffer stays under a few MB. The delivery thread itself never waits (a subscriber that calls
  /// the runtime, or finishes async work, goes on at once), so no thread waits for itself.
  static let backlogLimit = 1 << 14
  /// The buffer's size once it has grown: the bound, and space for the events other threads buffer
  /// before the one that found it full has drained it.
  static let backlogRoom = backlogLimit + backlogLimit / 4
  /// Unfinished operations above which `addOperation` paces its thread after its step (see `pace`).
  static let crowdedAt = 1024
  /// Unfinished operations above which `addOperation` returns only once the events published so far
  /// are delivered: otherwise a program adding a million operations runs tens of thousands ahead of
  /// the lints' fold, and those unfinished records set the run's peak memory.
  static let farAheadAt = 2048

  /// An adding thread with more than `crowdedAt` operations unfinished waits, once its step is
  /// over, until `paceLow` are left or `paceWait` seconds pass, whichever comes first. A wait, not
  /// a yield after each step: on two cores a yield is up to one system call an operation, most
  /// returning at once with nothing else to run, each return taking the engine lock again from the
  /// workers. A wait that runs out means the work is not moving (a suspended queue, long work, or
  /// an operation adding from inside its own work): pacing then stops until `crowdedAt - paceLow`
  /// more have finished. Not on the delivery queue: a subscriber that adds must not wait for work
  /// whose events wait for it.
  private func pace() {
    guard DispatchQueue.getSpecific(key: onDelivery) == nil else { return }
    let deadline = EngineLock.deadline(after: Self.paceWait)
    lock.lock()
    pacedAdders += 1
    pacedAddersWoken = false
    while unfinished > Self.paceLow && lock.wait(until: deadline) {}
    pacedAdders -= 1
    if unfinished > Self.paceLow {
      paceTimeouts += 1
      paceAgainAt = core.finishedCount + Self.crowdedAt - Self.paceLow
    }
    lock.unlock()
  }

  /// Unfinished operations an adding thread waits for (see `pace`).
  static let paceLow = 512
  /// The longest an adding thread waits in `pace`, in seconds: 512 no-op operations take about
  /// a millisecond on two cores.
  static let paceWait = 0.002

  /// Pacing waits that ran out (tests).
  var pacingTimeouts: Int { withCore { _ in paceTimeouts } }

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

  // MARK: - From work

  func produce(from id: Int, _ name: String) -> Bool {
    withCore { core in
      let producer = core.ops[id]
      guard producer.state == .executing, let target = core.operation(named: name),
        !target.isEnqueued
      else {
        return false
      }
      core.produce(producer, name)
      return true
    }
  }

  /// The work of an operation returned (or an async one called finish). Called on a worker of QoS
  /// `level`, it returns the next job for that worker to run.
  private func workReturned(_ id: Int, errors: [String], level: Int? = nil) -> LiveJob? {
    beginStep()
    // Released after the step, outside the lock.
    let context = slots.returned(id)
    // Only a cancelled operation's work can have noticed a cancel (the flag is set only then):
    // the others skip the flag lock.
    let noticed = core.ops[id].cancelled ? context?.noticedCancelAt : nil
    core.workFinished(
      core.ops[id],
      noticed.map { errors.isEmpty ? .noticedCancel(at: $0) : .returned(errors: errors) }
        ?? .returned(errors: errors))
    return withExtendedLifetime(context) { endStep(handOff: level) }
  }

  /// The QoS index of an operation's work: its own QoS, else its queue's.
  private func level(of op: OperationRecord) -> Int {
    let qos =
      op.spec.qos != .default ? op.spec.qos : op.queue.map { core.queues[$0].qos } ?? .default
    return qos.index
  }

  // MARK: - Workers

  /// A job waited long enough without any job of its level being taken for Dispatch's pool to be taken
  /// as full (its threads blocked in work, or busy elsewhere): the level gets a new thread.
  private static let stallLimit = 0.001

  /// Runs a job's work on the calling worker; returns the next job it takes over, if any.
  private func run(_ job: LiveJob) -> LiveJob? {
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
  private func nextJob(at level: Int) -> LiveJob? {
    jobLock.lock()
    let job = takeWaitingJob(at: level)
    jobLock.unlock()
    return job
  }

  /// The oldest job waiting at `level`, counted as taken (for the watchdog). Under `jobLock`.
  private func takeWaitingJob(at level: Int) -> LiveJob? {
    let job = waitingJobs[level].popFirst()
    if job != nil { jobsTaken[level] &+= 1 }
    return job
  }

  /// Runs a worker's jobs: the one it took, then each one it is handed after it. Out of jobs, it
  /// looks for another a few times, giving its core away between looks, before it gives its thread
  /// back to Dispatch: a program adding operations one after another queues the next job a
  /// microsecond or two later, and a worker requested for it costs a dispatch, a wake-up and a
  /// context switch; the looks save most of those requests.
  private func work(_ first: LiveJob?, level: Int) {
    var next = first
    while let job = next {
      next = run(job)
      if next == nil { next = lingerForJob(at: level) }
    }
  }

  /// Looks for a job at `level` after each of `workerLooks` yields; nil once it leaves. While it
  /// looks it counts in `lingering`, and it stops counting under the same hold of `jobLock` in which
  /// it found the queue empty for the last time: a job queued after that gets a worker requested.
  private func lingerForJob(at level: Int) -> LiveJob? {
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
  private func requestWorker(at level: Int, onNewThread: Bool, into launches: inout [Launch]) {
    lastWorkerID &+= 1
    let id = lastWorkerID
    requestedWorker[level] = id
    if onNewThread {
      let qos = DispatchQoS(
        qosClass: QualityOfService.byIndex[level].dispatchQoS, relativePriority: 0)
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
  private func workerBegan(at level: Int, id: Int) {
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
  private func armWatchdog(into launches: inout [Launch]) {
    watchdogArmed = true
    jobsTakenWhenArmed = jobsTaken
    launches.append(.after(internalQueue, Self.stallLimit) { self.watchdogFired() })
  }

  /// Every level whose waiting jobs have not moved since the watchdog was armed gets a worker on a new
  /// thread. Re-armed while jobs wait.
  private func watchdogFired() {
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

extension LiveRuntime: EngineHost {
  // Called by the core under the lock: nothing here calls back into the core synchronously.

  var now: Double { stepTime }

  func execute(_ op: OperationRecord) {
    let id = op.id
    // A group without work: the children are the work.
    if op.spec.kind == .group && slots.startGroupWithoutWork(id) { return }
    let ctx = WorkContext(runtime: self, operation: op.name, id: id)
    let work = slots.start(id, context: ctx) ?? .none
    // It waits for a worker from the end of the step on (a finishing worker may take it over then).
    startedJobs.append(LiveJob(id: id, level: level(of: op), work: work, context: ctx))
  }

  func evaluate(_ op: OperationRecord, condition index: Int) {
    let id = op.id
    let condition = op.spec.conditions[index]
    let queue = workQueues[level(of: op)]
    if let closure = conditionClosures[id]?[condition.name] {
      launches.append(
        .async(queue) {
          let (result, error) = closure()
          self.withCore {
            $0.conditionEvaluated($0.ops[id], index: index, result: result, error: error)
          }
        })
      return
    }
    // Built-in checks are decided by the core; a scripted one without a closure gives its script.
    var result = ConditionResult.satisfied
    var error: String?
    if case .scripted(let r, let e) = condition.check { (result, error) = (r, e) }
    let deliver: @Sendable () -> Void = { [result, error] in
      self.withCore {
        $0.conditionEvaluated($0.ops[id], index: index, result: result, error: error)
      }
    }
    schedule(after: condition.evaluate, deliver)
  }

  func cancelExecuting(_ op: OperationRecord) {
    slots.context(of: op.id)?.requestCancel()
  }

  /// The engine finished the operation without its work: the work, still running, is told to stop
  /// as cooperative work is.
  func abandonExecuting(_ op: OperationRecord) { cancelExecuting(op) }

  func schedule(after seconds: Double, _ timer: EngineTimer) {
    schedule(after: seconds) { self.withCore { $0.fire(timer) } }
  }

  private func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) {
    launches.append(
      seconds > 0 ? .after(internalQueue, seconds, body) : .async(internalQueue, body))
  }
}

/// A dispatch decided under the engine lock, performed after it is released.
private enum Launch {
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

extension QualityOfService {
  static let byIndex: [QualityOfService] = [
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

/// A subscriber of a live runtime: its handler receives events from the `from`th on (by the core's
/// numbering). A class, so the handler is stored as it is called (in a list of tuples it was stored
/// generically, and each call went through a thunk).
private final class LiveSubscriber: Sendable {
  let from: Int
  let handler: @Sendable (Event) -> Void

  init(from: Int, handler: @escaping @Sendable (Event) -> Void) {
    self.from = from
    self.handler = handler
  }
}

extension LiveRuntime: EventReceiver {
  /// On `delivery`: one published event, to the subscribers of the batch that asked for it.
  func receive(_ event: borrowing Event) {
    if let only = publishingToOnly {
      only._withUnsafeGuaranteedRef { s in
        if publishingRawSeq >= s.from { s.handler(event) }
      }
    } else {
      for s in publishingTo where publishingRawSeq >= s.from { s.handler(event) }
    }
  }
}
