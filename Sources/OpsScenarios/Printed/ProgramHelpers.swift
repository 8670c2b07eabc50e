// MARK: - Helpers (written by opsview; not part of Foundation)
// The same source is compiled into opsview, where `opsview verify` runs the scenario with it.

import Foundation

/// Scenario seconds on a scaled real clock: `scale` real seconds per scenario second.
final class ScenarioClock: @unchecked Sendable {
  let scale: Double
  let start = Date()
  private var agenda: [(time: Double, order: Int, body: () -> Void)] = []
  private let printLock = NSLock()
  /// Where happenings go instead of standard output (`opsview verify` records the starts).
  private let sink: (@Sendable (_ time: Double, _ what: String, _ subject: String) -> Void)?

  init(scale: Double, report sink: (@Sendable (Double, String, String) -> Void)? = nil) {
    self.scale = scale
    self.sink = sink
  }

  /// Scenario seconds since the start.
  var now: Double { Date().timeIntervalSince(start) / scale }

  /// One line per happening: `   4.000  start  decode`.
  func report(_ what: String, _ subject: String) {
    let time = now
    if let sink { return sink(time, what, subject) }
    let line = String(format: "%8.3f", time) + "  " + what + "  " + subject + "\n"
    printLock.withLock { FileHandle.standardOutput.write(Data(line.utf8)) }
  }

  /// Runs `body` on the main thread at scenario time `time` (same time: in the order given).
  func at(_ time: Double, _ body: @escaping () -> Void) {
    agenda.append((time, agenda.count, body))
  }

  /// Runs `body` on a background thread `seconds` scenario seconds from now.
  func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds * scale, execute: body)
  }

  /// Runs the agenda in time order, then waits until scenario time `end`.
  func run(until end: Double) {
    for item in agenda.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) {
      let wait = item.time * scale - Date().timeIntervalSince(start)
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      item.body()
    }
    let wait = end * scale - Date().timeIntervalSince(start)
    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
  }
}

/// Work that takes `work` scenario seconds, as an asynchronous operation (its start() returns at
/// once and a timer finishes it), so a small worker pool cannot delay other operations' starts.
/// `cancellation` says how the work reacts to isCancelled, as the scenario's `cancellation` key:
/// `.cooperative` checks every `checkEvery` seconds and stops, `.immediate` finishes at once,
/// `.ignored` never checks and runs to the end.
final class TimedOperation: Operation, @unchecked Sendable {
  enum Cancellation {
    case cooperative(checkEvery: Double)
    case immediate, ignored
  }

  let clock: ScenarioClock
  let work: Double
  let cancellation: Cancellation
  /// The error the work finishes with (Foundation has no errors: it is reported, not thrown).
  let fails: String?
  /// false: an asynchronous operation that never calls finish (a pitfall).
  let finishes: Bool
  /// A timeout observer (ProcedureKit's TimeoutObserver): cancels it this long after it started.
  var timeout: Double?
  /// Operations it adds to its own queue while executing, `at` seconds after it started
  /// (ProcedureKit's `produce(operation:)`).
  var produces: [(at: Double, operation: Operation, queue: OperationQueue)] = []
  private let lock = NSLock()
  private var executing = false
  private var done = false
  private let finished = DispatchSemaphore(value: 0)

  init(
    _ name: String, clock: ScenarioClock, work: Double,
    cancellation: Cancellation = .cooperative(checkEvery: 0.25), fails: String? = nil,
    finishes: Bool = true
  ) {
    self.clock = clock
    self.work = work
    self.cancellation = cancellation
    self.fails = fails
    self.finishes = finishes
    super.init()
    self.name = name
  }

  /// Runs it as a barrier block's body (`addBarrierBlock`): the barrier holds its queue until the
  /// work has finished, as a barrier with work does.
  func runAsBarrier() {
    start()
    finished.wait()
  }

  override var isAsynchronous: Bool { true }
  override var isExecuting: Bool { lock.withLock { executing } }
  override var isFinished: Bool { lock.withLock { done } }

  override func start() {
    // Cancelled before it started: its queue still starts it; it skips its work and finishes.
    if isCancelled {
      clock.report("skip", name!)
      finish()
      return
    }
    lock.withLock { executing = true }
    didChangeValue(forKey: "isExecuting")
    clock.report("start", name!)
    if let timeout {
      clock.after(timeout) { [self] in
        if !isFinished {
          clock.report("timeout", name!)
          cancel()
        }
      }
    }
    for (at, operation, queue) in produces {
      clock.after(at) { [self] in
        if !isFinished {
          clock.report("produce", operation.name!)
          queue.addOperation(operation)
        }
      }
    }
    if case .cooperative(let every) = cancellation { check(at: every, every, began: clock.now) }
    if finishes {
      clock.after(work) { [self] in
        if let fails { clock.report("failed", "\(name!): \(fails)") }
        finish()
      }
    }
  }

  /// Cooperative work looks at isCancelled every `every` seconds while it runs.
  private func check(at t: Double, _ every: Double, began: Double) {
    if finishes && t >= work { return }
    clock.after(max(0, t - (clock.now - began))) { [self] in
      if isFinished { return }
      if isCancelled {
        clock.report("noticed", name!)
        finish()
      } else {
        check(at: t + every, every, began: began)
      }
    }
  }

  override func cancel() {
    super.cancel()
    if case .immediate = cancellation, isExecuting { finish() }
  }

  func finish() {
    let first = lock.withLock {
      if done { return false }
      executing = false
      done = true
      return true
    }
    guard first else { return }
    clock.report("finish", name!)
    didChangeValue(forKey: "isExecuting")
    didChangeValue(forKey: "isFinished")
    finished.signal()
  }
}
