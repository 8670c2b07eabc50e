import Dispatch
import Foundation
import OpsEngine
import OpsEvents
import Testing

/// Records, under a lock, the order in which work closures begin, and lets the test wait for them.
final class BeginRecorder: @unchecked Sendable {
  private let condition = NSCondition()
  private var names: [String] = []

  func began(_ name: String) {
    condition.lock()
    names.append(name)
    condition.broadcast()
    condition.unlock()
  }

  var order: [String] {
    condition.lock()
    defer { condition.unlock() }
    return names
  }

  /// Waits until `count` closures have begun. False only when the hang guard expires.
  func waitFor(_ count: Int, timeout: Double = liveTimeout) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while names.count < count {
      if !condition.wait(until: deadline) { return names.count >= count }
    }
    return true
  }
}

/// The start order of work on the live runtime when a queue's limit changes while work runs: closures
/// begin step by step in the order of the `executing` events, which is Foundation's order. Within a
/// step that starts several operations at once, each on its own thread, the threads race to their
/// first line on both (swift-corelibs-foundation `Sources/Foundation/Operation.swift`: one `_schedule`
/// pass hands each operation to the concurrent backing queue as its own work item), so begins are
/// compared as the set of each step: o1; o2 and o3; o4; o5…o12. Every closure blocks on a semaphore
/// the test controls and the test waits for what it expects to see (begins, finishes) before its
/// next step, so nothing depends on timing.
@Suite struct LiveStartOrderTests {
  static let names = (1...12).map { "o\($0)" }

  /// `maxConcurrent` 1 → 3 → 0 → unlimited over twelve operations whose work blocks until released.
  /// It covers the three ways a job gets a thread: a worker requested from Dispatch, a worker that just
  /// finished an operation taking over the job its finishing started, and a burst of eight jobs that all
  /// start at once while o3 blocks its thread and each of them blocks its own.
  @Test func workBeginsInTheOrderOfExecutingEventsWhileTheLimitChanges() throws {
    let run = try Self.playBlocking(qos: .default)
    #expect(run.executing == Self.names)
    #expect(Self.bySteps(run.begins) == Self.bySteps(run.executing), "\(run.begins)")
  }

  /// `executing` means the work has a thread: the same program on a utility queue while Dispatch's
  /// utility pool is exhausted (its threads blocked, many more blocks queued behind them, and
  /// libdispatch adding about one thread per second) still begins every operation, in order. (When work
  /// went straight to Dispatch's global queue, o1 did not begin within the hang guard.)
  @Test func workGetsAThreadWhileDispatchsPoolIsExhausted() throws {
    let blockers = max(64, 8 * ProcessInfo.processInfo.activeProcessorCount)
    let hold = DispatchSemaphore(value: 0)
    for _ in 0..<blockers { DispatchQueue.global(qos: .utility).async { hold.wait() } }
    defer { for _ in 0..<blockers { hold.signal() } }
    let run = try Self.playBlocking(qos: .utility)
    #expect(run.executing == Self.names)
    #expect(Self.bySteps(run.begins) == Self.bySteps(run.executing), "\(run.begins)")
  }

  /// Plays the program with work that records its begin and blocks until released; the test waits for
  /// the begins (and finishes) it expects before each next step. Returns the begin order and the order
  /// of the `executing` events.
  private static func playBlocking(qos: QoS) throws -> (
    begins: [String], executing: [String]
  ) {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let begins = BeginRecorder()
    let gates = names.map { _ in DispatchSemaphore(value: 0) }
    var released = Set<Int>()
    func release(_ i: Int) {
      if released.insert(i).inserted { gates[i].signal() }
    }
    // Whatever happens, no closure stays blocked after the test.
    defer { for i in gates.indices { release(i) } }

    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1, qos: qos))
    for (i, name) in names.enumerated() {
      let gate = gates[i]
      try rt.addOperation(
        live(name),
        work: .sync { _ in
          begins.began(name)
          gate.wait()
        }, on: "q")
    }
    try #require(begins.waitFor(1))  // o1

    rt.perform(.setMaxConcurrent(queue: "q", value: 3))  // o2 and o3 start in one step
    try #require(begins.waitFor(3))

    // o1's worker finishes it; the same step starts o4, which that worker takes over.
    release(0)
    try #require(begins.waitFor(4))

    rt.perform(.setMaxConcurrent(queue: "q", value: 0))
    release(1)
    release(3)
    try #require(rt.waitUntilFinished(["o2", "o4"], timeout: liveTimeout))
    #expect(rt.state(of: "o5") == .ready)  // a limit of 0 starts nothing
    #expect(begins.order.count == 4)

    // o5…o12 start in one step while o3 still blocks its thread; each of them then blocks too, so all
    // eight need a thread of their own at the same time.
    rt.perform(.setMaxConcurrent(queue: "q", value: nil))
    try #require(begins.waitFor(12))

    for i in gates.indices { release(i) }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))

    let executing = log.events.compactMap { event -> String? in
      if case .state(let name, _, .executing, _) = event.kind { name } else { nil }
    }
    return (begins.order, executing)
  }

  /// The same program on Foundation's OperationQueue and on the live runtime, with asynchronous
  /// operations whose start records its begin and which finish when the test says so (blocked threads
  /// would make libdispatch add one thread per second on a small machine). Both begin the same
  /// operations at each step (whole-suite runs here saw Foundation begin o1, o3, o2 and the live
  /// runtime o6 after o12: within a step, threads race).
  @Test func sameProgramBeginsInTheSameOrderOnFoundation() throws {
    let foundation = try Self.playOnFoundation()
    let live = try Self.playLive()
    #expect(Self.bySteps(foundation) == Self.bySteps(Self.names), "\(foundation)")
    #expect(Self.bySteps(live) == Self.bySteps(foundation), "\(live)")
  }

  /// Begins grouped by the step of the program that starts them: o1; o2 and o3; o4; o5…o12.
  private static func bySteps(_ begins: [String]) -> [Set<String>] {
    var rest = begins[...]
    return [1, 2, 1, 8].map { n in
      defer { rest = rest.dropFirst(n) }
      return Set(rest.prefix(n))
    }
  }

  /// The steps of the program, for one side: set the limit, wait for `n` begins, finish operation `i`.
  private enum Step {
    case limit(Int?)
    case awaitBegins(Int)
    case finish(Int)
  }

  private static let program: [Step] = [
    .awaitBegins(1),
    .limit(3), .awaitBegins(3),
    .finish(0), .awaitBegins(4),
    .limit(0), .finish(1), .finish(3),
    .limit(nil), .awaitBegins(12),
  ]

  private static func playLive() throws -> [String] {
    let rt = LiveRuntime()
    let begins = BeginRecorder()
    let finishers = LockedFinishers()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    for (i, name) in names.enumerated() {
      try rt.addOperation(
        live(name),
        work: .async { _, finish in
          finishers.store(i, finish)
          begins.began(name)
        }, on: "q")
    }
    for step in program {
      switch step {
      case .limit(let value): rt.perform(.setMaxConcurrent(queue: "q", value: value))
      case .awaitBegins(let n): try #require(begins.waitFor(n))
      case .finish(let i): finishers.finish(i)
      }
    }
    for i in names.indices { finishers.finish(i) }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    return begins.order
  }

  private static func playOnFoundation() throws -> [String] {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let begins = BeginRecorder()
    let ops = names.map { HeldAsyncOperation(name: $0, begins: begins) }
    Self.keepAlive.withLock { $0.append((queue, ops)) }
    for op in ops { queue.addOperation(op) }
    for step in program {
      switch step {
      case .limit(let value):
        queue.maxConcurrentOperationCount =
          value ?? OperationQueue.defaultMaxConcurrentOperationCount
      case .awaitBegins(let n): try #require(begins.waitFor(n))
      case .finish(let i): ops[i].finishOnce()
      }
    }
    for op in ops { op.finishOnce() }
    queue.waitUntilAllOperationsAreFinished()
    return begins.order
  }

  /// Releasing a queue whose last operation is still finishing on another thread is not safe in
  /// swift-corelibs-foundation (see FoundationMirror): keep them for the life of the process.
  private static let keepAlive = LockedBox<[(OperationQueue, [HeldAsyncOperation])]>([])
}

/// The `finish` callbacks of the live runtime's async work, by operation index.
private final class LockedFinishers: @unchecked Sendable {
  private let lock = NSLock()
  private var callbacks: [Int: @Sendable ([String]) -> Void] = [:]
  private var finished = Set<Int>()

  func store(_ i: Int, _ finish: @escaping @Sendable ([String]) -> Void) {
    lock.lock()
    callbacks[i] = finish
    lock.unlock()
  }

  /// Finishes operation `i` once, if it has begun.
  func finish(_ i: Int) {
    lock.lock()
    let callback = finished.contains(i) ? nil : callbacks[i]
    if callback != nil { finished.insert(i) }
    lock.unlock()
    callback?([])
  }
}

/// An asynchronous Foundation operation: its start records the begin; it finishes when told to.
private final class HeldAsyncOperation: Operation, @unchecked Sendable {
  private let label: String
  private let begins: BeginRecorder
  private let lock = NSLock()
  private var _executing = false
  private var _finished = false
  private var begun = false
  private var finishRequested = false

  init(name: String, begins: BeginRecorder) {
    self.label = name
    self.begins = begins
    super.init()
    self.name = name
  }

  override var isAsynchronous: Bool { true }
  override var isExecuting: Bool {
    lock.lock()
    defer { lock.unlock() }
    return _executing
  }
  override var isFinished: Bool {
    lock.lock()
    defer { lock.unlock() }
    return _finished
  }

  override func start() {
    lock.lock()
    _executing = true
    begun = true
    let finishNow = finishRequested
    lock.unlock()
    didChangeValue(forKey: "isExecuting")
    begins.began(label)
    if finishNow { complete() }
  }

  /// Finishes now if started, else as soon as it starts.
  func finishOnce() {
    lock.lock()
    let started = begun
    let already = finishRequested
    finishRequested = true
    lock.unlock()
    if started && !already { complete() }
  }

  private func complete() {
    lock.lock()
    _executing = false
    _finished = true
    lock.unlock()
    didChangeValue(forKey: "isExecuting")
    didChangeValue(forKey: "isFinished")
  }
}
