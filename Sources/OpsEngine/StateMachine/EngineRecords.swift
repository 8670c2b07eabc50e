import OpsEvents

/// The engine's record of one operation. Internal: the outside sees events and snapshots.
final class OperationRecord {
  /// Its index in `EngineCore.ops`, set once when the core adopts it (the live runtime builds a
  /// record before it takes its lock, and the core numbers it under the lock).
  @exclusivity(unchecked) var id: Int
  let spec: OperationSpec
  /// `spec.name.hashValue`, computed with the record: the live runtime builds it before it takes
  /// the engine lock, under which the core's name index uses it (see `OperationNameIndex`).
  let nameHash: Int
  /// Cached: `spec.kind` is computed and copies the whole spec each time.
  let kind: OperationKind
  @exclusivity(unchecked) var state: OperationState = .initialized
  @exclusivity(unchecked) var cancelled = false
  /// Who cancelled it (set with `cancelled`).
  @exclusivity(unchecked) var cancelCause: CancelCause?
  @exclusivity(unchecked) var errors: [String] = []
  @exclusivity(unchecked) var queue: Int?
  /// Enqueue order, for FIFO within a priority.
  @exclusivity(unchecked) var order = 0
  /// Its place in its queue's `members` while it is one (-1: not a member).
  @exclusivity(unchecked) var memberPosition = -1
  @exclusivity(unchecked) var priority: QueuePriority = .normal
  /// Ids; the first two inline (`IDList`): no allocation for most operations.
  @exclusivity(unchecked) var dependencies = IDList()
  @exclusivity(unchecked) var dependents = IDList()
  @exclusivity(unchecked) var unfinishedDependencies = 0
  /// Of `dependents`, those that have not finished (linked while unfinished, not finished since):
  /// whether its record can go is then a number, not a walk over every dependent (`canRetire`).
  @exclusivity(unchecked) var unfinishedDependents = 0
  /// Where a projection folding every event since the start keeps it: the number of operations
  /// added to a queue before it (-1 until it is). Passed with its hot events as a hint (see
  /// `EventBuffer`).
  @exclusivity(unchecked) var foldRow = -1
  /// Condition results still outstanding while evaluating.
  @exclusivity(unchecked) var conditionsPending = 0
  /// Conditions whose evaluation waits for their produced dependency (by condition index).
  @exclusivity(unchecked) var conditionsAwaitingDependency: [Int] = []
  /// Condition-produced dependencies (`login` for `loggedIn`), by condition index.
  @exclusivity(unchecked) var producedDependencies: [Int: Int] = [:]
  /// Whom a produced dependency serves: (operation, condition index).
  @exclusivity(unchecked) var producedFor: (op: Int, condition: Int)?
  /// Why it will start, decided when its queue takes it (it may begin later, behind a barrier).
  @exclusivity(unchecked) var startCause: StateCause?
  @exclusivity(unchecked) var tookSlot = false
  @exclusivity(unchecked) var holdsLocks = false
  @exclusivity(unchecked) var waitingForLocks = false
  /// Its locks were given back when its queue was suspended before it started: it asks again once
  /// its queue starts it (X10).
  @exclusivity(unchecked) var reclaimsLocks = false
  /// Waiting again for its locks after its queue started it (it keeps its slot meanwhile).
  @exclusivity(unchecked) var reclaimingLocks = false
  /// Implicit dependencies on barriers (Foundation's internal `_addDependency`), unfinished: they delay
  /// its start but not its condition evaluation or lock request.
  @exclusivity(unchecked) var barrierDependencies: [Int] = []
  /// Conditions passed and locks held, but a barrier it depends on has not finished.
  @exclusivity(unchecked) var evaluationOver = false
  /// Group bookkeeping.
  @exclusivity(unchecked) var parent: Int?
  @exclusivity(unchecked) var outstandingChildren = 0
  @exclusivity(unchecked) var innerQueue: Int?
  @exclusivity(unchecked) var childCount = 0
  @exclusivity(unchecked) var childErrors: [String] = []
  @exclusivity(unchecked) var started = false
  /// Finished, its completion block not yet run (its event names it: it cannot be retired yet).
  @exclusivity(unchecked) var awaitingCompletion = false

  init(id: Int, spec: consuming OperationSpec) {
    // The categories are a set (SEMANTICS X1): one named twice is held once.
    if spec.exclusivity.count > 1 {
      var seen = Set<String>()
      spec.exclusivity.removeAll { !seen.insert($0).inserted }
    }
    self.id = id
    kind = spec.kind
    nameHash = spec.name.hashValue
    self.spec = spec
  }

  var name: String { spec.name }
  var isEnqueued: Bool { queue != nil }
}

final class QueueRecord {
  let id: Int
  let name: String
  @exclusivity(unchecked) var maxConcurrent: Int?
  @exclusivity(unchecked) var suspended: Bool
  let qos: QoS
  @exclusivity(unchecked) var executing = 0
  /// Operations in the queue that have not finished (Foundation's operationCount).
  @exclusivity(unchecked) var members = MemberList()
  /// Ready operations by priority, highest first.
  @exclusivity(unchecked) var ready = [ReadyList](repeating: ReadyList(), count: 5)
  /// How many operations `ready` holds in all: a queue with none is not scanned level by level
  /// (after most finishes at no limit, nothing is waiting).
  @exclusivity(unchecked) var readyCount = 0
  /// Operations whose dependencies are done but whose conditions wait for the queue to resume.
  @exclusivity(unchecked) var awaitingEvaluation: [Int] = []
  /// Lock requests made while the queue was suspended, in order: they are made on resume (X10).
  @exclusivity(unchecked) var deferredLockRequests: [(op: Int, cause: StateCause)] = []
  /// What last made room (a finish, a resume, a raised limit): the starts of the next pass name it.
  @exclusivity(unchecked) var roomMaker: StateCause.StartTrigger?

  init(id: Int, spec: QueueSpec) {
    self.id = id
    name = spec.name
    maxConcurrent = spec.maxConcurrent
    suspended = spec.suspended
    qos = spec.qos
  }

  var limit: Int { maxConcurrent ?? Int.max }
}

/// ProcedureKit-style mutual exclusivity: requested once the conditions pass, granted FIFO per category.
struct CategoryLock {
  var holder: Int?
  var waiters: [Int] = []
}
