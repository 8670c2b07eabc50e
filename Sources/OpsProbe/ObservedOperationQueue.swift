import Foundation
import OpsEngine
import OpsEvents

/// An `OperationQueue` that reports to the running `Probe`: create it where the app creates its
/// queue (`let downloads = ObservedOperationQueue(name: "downloads")`). Exactly reported: the queue,
/// each operation added (its name, or a generated one it is given), dependencies, priority, QoS,
/// block operations and barriers, suspension and limit changes. Sampled: operation states and
/// cancellation (see `Probe.start(sampleInterval:)`).
open class ObservedOperationQueue: OperationQueue, @unchecked Sendable {
  private let probe: Probe?
  /// The name the probe reports: the queue's own, or `name #N` when another observed queue has it.
  private var queueName = ""

  public init(name: String, maxConcurrent: Int = OperationQueue.defaultMaxConcurrentOperationCount)
  {
    probe = Probe.current
    super.init()
    self.name = name
    super.maxConcurrentOperationCount = maxConcurrent
    queueName =
      probe?.registry.add(queue: self, name: ControlCharacters.printable(name)) ?? name
    probe?.emit(
      .queueAdded(
        queue: queueName, maxConcurrent: maxConcurrent < 0 ? nil : maxConcurrent, suspended: false,
        qos: .default))
  }

  open override func addOperation(_ op: Operation) {
    if let probe {
      let kind: OperationKind = op is BlockOperation ? .block : op.isAsynchronous ? .async : .plain
      if op.name == nil { op.name = probe.registry.generatedName(kind.rawValue) }
      report(op, kind: kind, probe: probe)
    }
    super.addOperation(op)
  }

  open override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
    for op in ops { addOperation(op) }
    if wait { for op in ops { op.waitUntilFinished() } }
  }

  open override func addOperation(_ block: @escaping @Sendable () -> Void) {
    addOperation(BlockOperation(block: block))
  }

  /// A barrier is reported as an operation of kind barrier that depends on everything before it; it
  /// is watched through its block, which runs when the barrier is reached.
  open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
    guard let probe else { return super.addBarrierBlock(barrier) }
    let name = probe.registry.generatedName("barrier")
    let marker = BlockOperation {}
    marker.name = name
    for op in operations where !op.isFinished { marker.addDependency(op) }
    report(marker, kind: .barrier, probe: probe)
    super.addBarrierBlock {
      barrier()
      marker.start()
    }
  }

  private func report(_ op: Operation, kind: OperationKind, probe: Probe) {
    let deps = op.dependencies.map { probe.registry.reportedName(of: $0) }
    let name = probe.registry.operationName(ControlCharacters.printable(op.name!))
    probe.emit(
      .operationAdded(
        operation: name, queue: queueName, priority: Self.priority(op.queuePriority),
        qos: Self.qos(op.qualityOfService), kind: kind, dependencies: deps, conditions: [],
        exclusivity: [], work: nil))
    probe.emit(
      .state(operation: name, from: .initialized, to: .pending, cause: .added(queue: queueName))
    )
    probe.registry.watch(
      .init(
        operation: op, name: name, queue: queueName, dependencies: deps, state: .pending,
        cancelled: false))
  }

  open override var isSuspended: Bool {
    get { super.isSuspended }
    set {
      super.isSuspended = newValue
      probe?.emit(newValue ? .queueSuspended(queue: queueName) : .queueResumed(queue: queueName))
    }
  }

  open override var maxConcurrentOperationCount: Int {
    get { super.maxConcurrentOperationCount }
    set {
      super.maxConcurrentOperationCount = newValue
      probe?.emit(.queueMaxConcurrent(queue: queueName, value: newValue < 0 ? nil : newValue))
    }
  }

  static func priority(_ p: Operation.QueuePriority) -> OpsEvents.QueuePriority {
    switch p {
    case .veryLow: .veryLow
    case .low: .low
    case .high: .high
    case .veryHigh: .veryHigh
    default: .normal
    }
  }

  static func qos(_ q: Foundation.QualityOfService) -> QoS {
    switch q {
    case .userInteractive: .userInteractive
    case .userInitiated: .userInitiated
    case .utility: .utility
    case .background: .background
    default: .default
    }
  }
}
