import Foundation
import OpsEngine
import OpsEvents

/// Plays the queue-level part of a scenario on this machine's Foundation `OperationQueue`: real
/// queues, priorities, QoS, dependencies, limits, suspension and the actions at their times, on a
/// clock scaled to `scale` real seconds per scenario second. The work is asynchronous (a timer
/// finishes it), so a small worker pool does not delay starts. Records when each operation started.
public final class FoundationRun: @unchecked Sendable {
  public let scale: Double
  private let begin = Date()
  private let lock = NSLock()
  private var starts: [(Double, String)] = []
  /// Set when the run's window ends: starts after it are not the scenario's (the final
  /// `cancelAllOperations()` lets Foundation start every cancelled operation, members of a
  /// dependency cycle included, which counted as a difference).
  private var closed = false

  public init(scale: Double) { self.scale = scale }

  var now: Double { Date().timeIntervalSince(begin) / scale }

  func started(_ name: String) {
    let t = now
    lock.withLock { if !closed { starts.append((t, name)) } }
  }

  func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds * scale, execute: body)
  }

  /// Runs `operations` (names) of the scenario until scenario time `end`; returns the starts.
  public func run(_ scenario: Scenario, operations checked: Set<String>, until end: Double)
    -> [(Double, String)]
  {
    var queues: [String: OperationQueue] = [:]
    for q in scenario.queues {
      let queue = OperationQueue()
      queue.name = q.name
      if let m = q.maxConcurrent { queue.maxConcurrentOperationCount = m }
      queue.qualityOfService = FoundationRun.qos(q.qos)
      queue.isSuspended = q.suspended
      queues[q.name] = queue
    }
    var ops: [String: ScaledOperation] = [:]
    for op in scenario.operations where checked.contains(op.spec.name) {
      let o = ScaledOperation(op.spec, run: self)
      if let p = op.spec.priority { o.queuePriority = FoundationRun.priority(p) }
      if op.spec.qos != .default { o.qualityOfService = FoundationRun.qos(op.spec.qos) }
      ops[op.spec.name] = o
    }
    for op in scenario.operations {
      for d in op.spec.dependencies {
        if let o = ops[op.spec.name], let dep = ops[d] { o.addDependency(dep) }
      }
      for p in op.spec.work.produces {
        if let o = ops[op.spec.name], let made = ops[p.operation], let q = queues[op.queue] {
          o.produces.append((p.at, made, q))
        }
      }
    }
    var agenda: [(time: Double, order: Int, body: () -> Void)] = []
    for op in scenario.operations where !op.produced {
      guard let o = ops[op.spec.name], let q = queues[op.queue] else { continue }
      let add: () -> Void =
        op.spec.barrier ? { q.addBarrierBlock { o.start() } } : { q.addOperation(o) }
      agenda.append((op.addedAt, agenda.count, add))
    }
    for a in scenario.actions {
      let body: () -> Void
      switch a.command {
      case .cancel(let name):
        guard let o = ops[name] else { continue }
        body = { o.cancel() }
      case .cancelAll(let q):
        guard let queue = queues[q] else { continue }
        body = { queue.cancelAllOperations() }
      case .suspend(let q):
        guard let queue = queues[q] else { continue }
        body = { queue.isSuspended = true }
      case .resume(let q):
        guard let queue = queues[q] else { continue }
        body = { queue.isSuspended = false }
      case .setMaxConcurrent(let q, let v):
        guard let queue = queues[q] else { continue }
        body = {
          queue.maxConcurrentOperationCount = v ?? OperationQueue.defaultMaxConcurrentOperationCount
        }
      }
      // Actions run after the operations added at the same time.
      agenda.append((a.at, 1_000_000 + agenda.count, body))
    }
    for item in agenda.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) {
      let wait = item.time * scale - Date().timeIntervalSince(begin)
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      item.body()
    }
    let wait = end * scale - Date().timeIntervalSince(begin)
    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    let seen = lock.withLock {
      closed = true
      return starts
    }
    for q in queues.values { q.cancelAllOperations() }
    return seen
  }

  static func priority(_ p: QueuePriority) -> Operation.QueuePriority {
    switch p {
    case .veryLow: .veryLow
    case .low: .low
    case .normal: .normal
    case .high: .high
    case .veryHigh: .veryHigh
    }
  }

  static func qos(_ q: QoS) -> Foundation.QualityOfService {
    switch q {
    case .userInteractive: .userInteractive
    case .userInitiated: .userInitiated
    case .utility: .utility
    case .background: .background
    case .default: .default
    }
  }
}

/// The scenario's work as an asynchronous operation on the scaled clock; cancellation as the
/// scenario says (cooperative checks, immediate, ignored), a timeout observer, productions.
final class ScaledOperation: Operation, @unchecked Sendable {
  let spec: OperationSpec
  unowned let run: FoundationRun
  var produces: [(Double, Operation, OperationQueue)] = []
  private let lock = NSLock()
  private var executing = false
  private var done = false

  init(_ spec: OperationSpec, run: FoundationRun) {
    self.spec = spec
    self.run = run
    super.init()
    name = spec.name
  }

  override var isAsynchronous: Bool { true }
  override var isExecuting: Bool { lock.withLock { executing } }
  override var isFinished: Bool { lock.withLock { done } }

  override func start() {
    if isCancelled {
      finish()
      return
    }
    lock.withLock { executing = true }
    didChangeValue(forKey: "isExecuting")
    run.started(spec.name)
    let began = run.now
    if let timeout = spec.timeout {
      run.after(timeout) { [self] in if !isFinished { cancel() } }
    }
    for (at, op, queue) in produces {
      run.after(at) { [self] in if !isFinished { queue.addOperation(op) } }
    }
    if spec.cancellation == .cooperative { check(at: spec.work.checkEvery, began: began) }
    if spec.work.finishes { run.after(spec.work.effectiveDuration) { [self] in finish() } }
  }

  private func check(at t: Double, began: Double) {
    if spec.work.finishes && t >= spec.work.effectiveDuration { return }
    run.after(max(0, t - (run.now - began))) { [self] in
      if isFinished { return }
      if isCancelled { finish() } else { check(at: t + spec.work.checkEvery, began: began) }
    }
  }

  override func cancel() {
    super.cancel()
    if spec.cancellation == .immediate, isExecuting { finish() }
  }

  func finish() {
    let first = lock.withLock {
      if done { return false }
      executing = false
      done = true
      return true
    }
    guard first else { return }
    didChangeValue(forKey: "isExecuting")
    didChangeValue(forKey: "isFinished")
  }
}
