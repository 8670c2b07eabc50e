/// The engine's record of one operation. Internal: the outside sees events and snapshots.
final class OperationRecord {
  let id: Int
  let spec: OperationSpec
  var state: OperationState = .initialized
  var cancelled = false
  var errors: [String] = []
  var queue: Int?
  /// Enqueue order, for FIFO within a priority.
  var order = 0
  var priority: QueuePriority = .normal
  var dependencies: [Int] = []
  var dependents: [Int] = []
  var unfinishedDependencies = 0
  /// Condition results still outstanding while evaluating.
  var conditionsPending = 0
  var conditionFailures: [String] = []
  var tookSlot = false
  var holdsLocks = false
  var waitingForLocks = false
  /// Group bookkeeping.
  var parent: Int?
  var outstandingChildren = 0
  var innerQueue: Int?
  var childErrors: [String] = []
  var started = false

  init(id: Int, spec: OperationSpec) {
    self.id = id
    self.spec = spec
  }

  var name: String { spec.name }
  var isEnqueued: Bool { queue != nil }
}

final class QueueRecord {
  let id: Int
  let name: String
  var maxConcurrent: Int?
  var suspended: Bool
  let qos: QualityOfService
  var executing = 0
  /// Operations in the queue that have not finished (Foundation's operationCount).
  var members = Set<Int>()
  /// Ready operations by priority, highest first.
  var ready = [ReadyList](repeating: ReadyList(), count: 5)
  /// Operations whose dependencies are done but whose conditions wait for the queue to resume.
  var awaitingEvaluation: [Int] = []
  /// The last barrier added; everything added after it depends on it.
  var lastBarrier: Int?

  init(id: Int, spec: QueueSpec) {
    self.id = id
    name = spec.name
    maxConcurrent = spec.maxConcurrent
    suspended = spec.suspended
    qos = spec.qos
  }

  var limit: Int { maxConcurrent ?? Int.max }
}

/// ProcedureKit-style mutual exclusivity: FIFO requests, lock taken just before executing.
struct CategoryLock {
  var holder: Int?
  var waiters: [Int] = []
}
