import Foundation
import OpsEngine
import OpsEvents

/// Plays the queue-level part of a scenario on this machine's Foundation `OperationQueue`: real
/// queues, priorities, QoS, dependencies, limits, suspension and the actions at their times, on a
/// `ScenarioClock` scaled to `scale` real seconds per scenario second. The work is the
/// `TimedOperation` that `opsview code` prints (Printed/ProgramHelpers.swift), so what is verified is
/// what the program runs. Records when each operation started.
public final class FoundationRun: @unchecked Sendable {
  public let scale: Double
  private let lock = NSLock()
  private var starts: [(Double, String)] = []
  /// Set when the run's window ends: starts after it are not the scenario's (the final
  /// `cancelAllOperations()` lets Foundation start every cancelled operation, members of a
  /// dependency cycle included, which counted as a difference).
  private var closed = false

  public init(scale: Double) { self.scale = scale }

  private func record(_ time: Double, _ what: String, _ subject: String) {
    guard what == "start" else { return }
    lock.withLock { if !closed { starts.append((time, subject)) } }
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
    let clock = ScenarioClock(scale: scale) { [self] in record($0, $1, $2) }
    var ops: [String: TimedOperation] = [:]
    for op in scenario.operations where checked.contains(op.spec.name) {
      let o = FoundationRun.operation(op.spec, clock: clock)
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
          o.produces.append((at: p.at, operation: made, queue: q))
        }
      }
    }
    // The clock's agenda keeps the order given at equal times: operations, then the actions.
    for op in scenario.operations where !op.produced {
      guard let o = ops[op.spec.name], let q = queues[op.queue] else { continue }
      clock.at(
        op.addedAt,
        op.spec.barrier ? { q.addBarrierBlock { o.runAsBarrier() } } : { q.addOperation(o) })
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
      clock.at(a.at, body)
    }
    clock.run(until: end)
    let seen = lock.withLock {
      closed = true
      return starts
    }
    for q in queues.values { q.cancelAllOperations() }
    return seen
  }

  /// The operation `opsview code` writes for `spec` (see SwiftProgram), as an object.
  static func operation(_ spec: OperationSpec, clock: ScenarioClock) -> TimedOperation {
    let cancellation: TimedOperation.Cancellation =
      switch spec.cancellation {
      case .cooperative: .cooperative(checkEvery: spec.work.checkEvery)
      case .immediate: .immediate
      case .ignored: .ignored
      }
    let o = TimedOperation(
      spec.name, clock: clock, work: spec.work.effectiveDuration, cancellation: cancellation,
      fails: spec.work.fails, finishes: spec.work.finishes)
    o.timeout = spec.timeout
    if spec.completion {
      let name = spec.name
      o.completionBlock = { clock.report("completion", name) }
    }
    return o
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
