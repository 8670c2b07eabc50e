import Dispatch
import Foundation
import OpsEngine
import OpsEvents
import OpsTestSupport

/// Plays a `DiffProgram` on the real swift-corelibs-foundation `OperationQueue`.
///
/// Operations are asynchronous `Operation`s (`HeldOperation`): the queue starts them exactly as it starts
/// a `BlockOperation` (same scheduling, same slot, same dependency bookkeeping), but they occupy no thread
/// while they wait for their `finish` step. Work that blocks a thread would not do: once the workers of
/// libdispatch's pool are all blocked, it adds one thread per second. Finishing one from the test thread
/// runs Foundation's whole finishing path (dependents released, slot freed, queue scheduled) before
/// `complete()` returns, so after each step the run is settled once the starts and finishes the virtual
/// runtime predicts have been seen; nothing is timed (`patience` only bounds a wait that a disagreement
/// would make endless). Barriers are real `addBarrierBlock` blocks, which wait on a semaphore until
/// their `finish` step; the end of a barrier's finishing cannot be observed, only what it starts.
final class FoundationMirror: @unchecked Sendable {
  private let condition = NSCondition()
  private var starts: [[String]] = []
  private var finishes: [[String]] = []
  private var step = 0
  private var draining = false
  private var queues: [String: OperationQueue] = [:]
  private var operations: [String: HeldOperation] = [:]
  private var barrierGates: [String: DispatchSemaphore] = [:]
  private var startedNames = Set<String>()
  /// Every run's queues and operations, kept for the life of the process: releasing a queue whose last
  /// operation is still finishing on another thread is not safe in swift-corelibs-foundation.
  private static let keepAlive = LockedBox<[FoundationMirror]>([])
  /// How long to wait for what the virtual runtime predicts before calling it a disagreement. As long
  /// as the live tests' timeout: tests run in parallel in one process, and one of them holds Dispatch's
  /// utility pool on purpose (LiveStartOrderTests), which delays Foundation's starts without changing
  /// them.
  static let patience = 30.0

  /// Runs the program, settling after each step until `expected` (the virtual trace) has been seen.
  /// Returns the observed trace, or a description of where Foundation did not do what was expected.
  static func run(_ program: DiffProgram, expecting expected: DiffTrace) -> Result<
    DiffTrace, MirrorFailure
  > {
    FoundationMirror().play(program, expected)
  }

  struct MirrorFailure: Error, CustomStringConvertible {
    var description: String
  }

  private func play(_ program: DiffProgram, _ expected: DiffTrace) -> Result<
    DiffTrace, MirrorFailure
  > {
    Self.keepAlive.withLock { $0.append(self) }
    for q in program.queues {
      let queue = OperationQueue()
      queue.name = q.name
      queue.maxConcurrentOperationCount =
        q.maxConcurrent ?? OperationQueue.defaultMaxConcurrentOperationCount
      queue.isSuspended = q.suspended
      queues[q.name] = queue
    }
    for o in program.ops where !o.barrier {
      let op = HeldOperation(label: o.name, autoFinish: o.autoFinish, mirror: self)
      if let p = o.priority { op.queuePriority = Self.priority(p) }
      if let q = o.qos { op.qualityOfService = Self.qos(q) }
      operations[o.name] = op
    }
    for o in program.ops where o.barrier { barrierGates[o.name] = DispatchSemaphore(value: 0) }
    for o in program.ops {
      for d in o.dependencies { operations[o.name]!.addDependency(operations[d]!) }
    }
    for (i, s) in program.steps.enumerated() {
      condition.lock()
      step = i
      starts.append([])
      finishes.append([])
      condition.unlock()
      if let problem = perform(s, program) {
        drain()
        return .failure(MirrorFailure(description: "step \(i + 1) \(s): \(problem)"))
      }
      let starts = Set(expected.startsPerStep[...i].joined())
      let finishes = Set(expected.finishesPerStep[...i].joined())
      if !settle(starts: starts, finishes: finishes) {
        let seen = trace()
        drain()
        return .failure(
          MirrorFailure(
            description:
              "step \(i + 1) \(s): expected \(starts.count) starts and \(finishes.count) finishes by now; Foundation so far: \(seen)"
          ))
      }
    }
    let unfinished = operations.values.filter { !$0.isFinished }.map(\.label)
    guard unfinished.isEmpty else {
      drain()
      return .failure(
        MirrorFailure(description: "never finished in Foundation: \(unfinished.sorted())"))
    }
    return .success(trace())
  }

  private func perform(_ step: DiffProgram.Step, _ program: DiffProgram) -> String? {
    switch step {
    case .add(let name):
      let o = program.op(name)
      let queue = queues[o.queue]!
      if o.barrier {
        let gate = barrierGates[name]!
        queue.addBarrierBlock { [self] in
          started(name)
          if !o.autoFinish && !isDraining { gate.wait() }
        }
      } else {
        queue.addOperation(operations[name]!)
      }
    case .resume(let q): queues[q]!.isSuspended = false
    case .suspend(let q): queues[q]!.isSuspended = true
    case .setMax(let q, let v):
      queues[q]!.maxConcurrentOperationCount =
        v ?? OperationQueue.defaultMaxConcurrentOperationCount
    case .cancel(let name): operations[name]!.cancel()
    case .cancelAll(let q): queues[q]!.cancelAllOperations()
    case .finish(let name):
      condition.lock()
      let isRunning = startedNames.contains(name)
      condition.unlock()
      guard isRunning else { return "\(name) has not started in Foundation" }
      if let gate = barrierGates[name] {
        gate.signal()
      } else {
        operations[name]!.complete()
      }
    case .finishFirst, .finishNth, .finishEverything:
      return "unresolved step (resolve the program on the virtual runtime first)"
    }
    return nil
  }

  // MARK: - Recording

  fileprivate func started(_ name: String) {
    condition.lock()
    starts[step].append(name)
    startedNames.insert(name)
    condition.broadcast()
    condition.unlock()
  }

  fileprivate func didFinish(_ name: String) {
    condition.lock()
    finishes[step].append(name)
    condition.broadcast()
    condition.unlock()
  }

  fileprivate var isDraining: Bool {
    condition.lock()
    defer { condition.unlock() }
    return draining
  }

  /// Waits until exactly the expected operations have started and finished. Gives up at once when
  /// something unexpected started or finished, and after `patience` when something expected never does.
  private func settle(starts wantStarts: Set<String>, finishes wantFinishes: Set<String>) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Self.patience)
    condition.lock()
    defer { condition.unlock() }
    while true {
      let started = Set(starts.joined())
      let finished = Set(finishes.joined())
      if !started.isSubset(of: wantStarts) || !finished.isSubset(of: wantFinishes) { return false }
      if started == wantStarts && finished == wantFinishes { return true }
      if !condition.wait(until: deadline) { return false }
    }
  }

  private func trace() -> DiffTrace {
    condition.lock()
    defer { condition.unlock() }
    let cancelled = Set(operations.values.filter(\.isCancelled).map(\.label))
    return DiffTrace(startsPerStep: starts, finishesPerStep: finishes, cancelled: cancelled)
  }

  /// After a disagreement: let everything run out so no work is left waiting on this run.
  private func drain() {
    condition.lock()
    draining = true
    let running = startedNames
    condition.unlock()
    for name in running { operations[name]?.complete() }
    for gate in barrierGates.values { gate.signal() }
    for q in queues.values {
      q.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
      q.isSuspended = false
    }
  }

  static func priority(_ p: OpsEvents.QueuePriority) -> Operation.QueuePriority {
    Operation.QueuePriority(rawValue: p.value)!
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

extension Differential {
  /// Plays the program on a thread of its own (see `onOwnThread`).
  static func run(_ program: DiffProgram) async throws -> Differential {
    try await onOwnThread(throwing: { try Differential(program) })
  }
}

final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

/// An asynchronous operation: started by its queue, it stays executing until `complete()` (or finishes
/// at once when cancelled before starting, or when `autoFinish`).
final class HeldOperation: Operation, @unchecked Sendable {
  let label: String
  private let autoFinish: Bool
  private unowned let mirror: FoundationMirror
  private let lock = NSLock()
  private var executing = false
  private var done = false

  init(label: String, autoFinish: Bool, mirror: FoundationMirror) {
    self.label = label
    self.autoFinish = autoFinish
    self.mirror = mirror
    super.init()
    name = label
  }

  override var isAsynchronous: Bool { true }
  override var isExecuting: Bool { lock.withLock { executing } }
  override var isFinished: Bool { lock.withLock { done } }

  override func start() {
    // A cancelled operation is still started by its queue; it skips its work and finishes.
    if isCancelled {
      complete()
      return
    }
    lock.withLock { executing = true }
    didChangeValue(forKey: "isExecuting")
    mirror.started(label)
    if autoFinish || mirror.isDraining { complete() }
  }

  /// Finishes the operation; Foundation's finishing (dependents, slot, scheduling) runs before it returns.
  func complete() {
    let first = lock.withLock {
      if done { return false }
      executing = false
      done = true
      return true
    }
    guard first else { return }
    didChangeValue(forKey: "isExecuting")
    didChangeValue(forKey: "isFinished")
    mirror.didFinish(label)
  }
}
