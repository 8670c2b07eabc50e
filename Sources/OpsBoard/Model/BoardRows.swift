import OpsEngine

/// How many operations of a queue are in each state. A fixed array indexed by `OperationState.order`.
public struct StateCounts: Sendable, Equatable {
  private var storage = [Int](repeating: 0, count: OperationState.allCases.count)

  public init() {}

  public subscript(state: OperationState) -> Int {
    get { storage[state.order] }
    set { storage[state.order] = newValue }
  }

  public var total: Int { storage.reduce(0, +) }
}

/// One row of the queues pane.
public struct QueueRow: Sendable, Equatable {
  public let name: String
  public let qos: QualityOfService
  /// `nil` is Foundation's default: no limit (shown as ∞).
  public internal(set) var maxConcurrent: Int?
  public internal(set) var suspended: Bool
  public internal(set) var counts = StateCounts()
  /// Operations of this queue whose cancelled flag is set.
  public internal(set) var cancelled = 0
  /// The last thing that made room in the queue (a finish, a resume, a raised limit), so the start it
  /// causes can name it.
  var capacity: CapacityNote?

  public var executing: Int { counts[.executing] }
  public var operationCount: Int { counts.total }
}

/// What most recently made room in a queue, with the event it came from.
struct CapacityNote: Sendable, Equatable {
  var seq: Int
  var time: Double
  var cause: LogCause
}

/// A condition attached to an operation, as the board shows it.
public struct ConditionRow: Sendable, Equatable {
  public enum Status: String, Sendable, Equatable {
    /// Not evaluated yet (its dependencies have not all finished).
    case waiting
    case evaluating, satisfied, failed
    /// A mutual-exclusivity category whose lock another operation holds.
    case waitingForExclusivity
    /// A mutual-exclusivity category whose lock this operation holds while it executes.
    case holdsLock
    /// The lock was held and given back when the operation finished.
    case released
  }

  /// The label from the event (`loggedIn`, `not(reachable)`, `mutuallyExclusive(Alert)`).
  public let name: String
  /// The category, for a mutual-exclusivity condition.
  public let category: String?
  public internal(set) var status: Status = .waiting
  /// Who holds the lock this operation waits for.
  public internal(set) var holder: String?
  public internal(set) var error: String?
  /// When its evaluation started and when its result came (the detail view's span).
  public internal(set) var evaluationStarted: Double?
  public internal(set) var evaluationEnded: Double?

  /// `Alert lock` for a mutual-exclusivity category, else the condition's own label.
  public var displayName: String { category.map { "\($0) lock" } ?? name }
}

/// An observer call the engine made (didStart, willFinish, didFinish, completion), and when.
public struct ObserverCall: Sendable, Equatable {
  public let name: String
  public let time: Double
}

/// A state an operation entered, and when.
public struct StateVisit: Sendable, Equatable {
  public let state: OperationState
  public let time: Double
}

public struct Transition: Sendable, Equatable {
  public let from: OperationState
  public let to: OperationState
  public let time: Double
}

/// One row of the operations table: everything the board knows about an operation.
public struct OperationRow: Sendable, Equatable {
  public let name: String
  /// Position in add order (the table's order).
  public let index: Int
  public let queue: String
  public let priority: QueuePriority
  public let qos: QualityOfService
  public let kind: OperationKind
  /// Seconds of work when uninterrupted (nil for a group), for the progress bar.
  public let work: Double?
  public internal(set) var state: OperationState = .initialized
  public internal(set) var cancelled = false
  public internal(set) var cancelCause: CancelCause?
  public internal(set) var enteredState: Double
  public internal(set) var startedAt: Double?
  public internal(set) var finishedAt: Double?
  public internal(set) var dependencies: [String]
  public internal(set) var dependents: [String] = []
  public internal(set) var conditions: [ConditionRow]
  public internal(set) var errors: [String] = []
  public internal(set) var lastTransition: Transition?
  /// Every state entered, in order, with its time (at most seven).
  public internal(set) var history: [StateVisit]
  /// Observer calls in order (at most four).
  public internal(set) var observers: [ObserverCall] = []
  /// When its cancelled flag was set.
  public internal(set) var cancelledAt: Double?
  /// Part of a dependency cycle that was reported.
  public internal(set) var inCycle = false
  /// The operation that produced this one while executing, if any.
  public internal(set) var producedBy: String?
  /// Sequence number of the event that finished it (orders finishes within one instant).
  var finishSeq: Int?
  var readySeq: Int?
  var waitedForLock = false
  /// How many of its dependencies have finished, kept as they finish so the table never counts.
  var finishedDependencies = 0

  public var flags: OperationFlags { OperationFlags(state: state, cancelled: cancelled) }

  /// Seconds spent in the current state at `now`.
  public func timeInState(at now: Double) -> Double { max(0, now - enteredState) }

  /// Fraction of the work done, while executing and when the work has a known duration.
  public func progress(at now: Double) -> Double? {
    guard state == .executing, let start = startedAt, let w = work else { return nil }
    guard w > 0 else { return 1 }
    return min(1, max(0, (now - start) / w))
  }
}
