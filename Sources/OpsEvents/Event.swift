/// One change in the engine. Sequence numbers start at 1 and are gap-free; time is in seconds
/// (virtual seconds on the virtual runtime, seconds since start on the live runtime).
public struct Event: Sendable, Equatable {
  public let seq: Int
  public let time: Double
  public let kind: EventKind

  public init(seq: Int, time: Double, kind: EventKind) {
    self.seq = seq
    self.time = time
    self.kind = kind
  }
}

/// The version of the event contract (the JSONL fields and their meaning). Version 2: `state` events
/// carry a `cause`, `operationAdded` carries `exclusivity` apart from `conditions`, and lints are
/// published as `warning` events. docs/EVENTS.md describes every type and field.
public enum EventFormat {
  public static let version = 2
}

/// The event contract shared by the board, traces and tests. `type` and field names are the JSON keys.
///
/// The wide cases that come once per operation or less (`operationAdded`, conditions, exclusivity
/// waits, commands, warnings) are boxed, so a frequent one (`state`, `didStart`, `didFinish`) sets
/// the size of every event: 72 bytes instead of 104, in every log and recording the board keeps.
public enum EventKind: Sendable, Equatable {
  case queueAdded(queue: String, maxConcurrent: Int?, suspended: Bool, qos: QoS)
  case queueSuspended(queue: String)
  case queueResumed(queue: String)
  case queueMaxConcurrent(queue: String, value: Int?)
  indirect case operationAdded(
    operation: String, queue: String, priority: QueuePriority, qos: QoS,
    kind: OperationKind, dependencies: [String], conditions: [String], exclusivity: [String],
    work: Double?)
  case dependencyAdded(operation: String, dependency: String)
  case state(operation: String, from: OperationState, to: OperationState, cause: StateCause)
  /// The condition's evaluation waits for the operation it produced (`login` for `loggedIn`).
  indirect case conditionWaiting(operation: String, condition: String, dependency: String)
  case conditionStarted(operation: String, condition: String)
  indirect case conditionResult(
    operation: String, condition: String, result: ConditionResult, error: String?)
  indirect case exclusivityWaiting(operation: String, category: String, holder: String)
  case exclusivityAcquired(operation: String, category: String)
  case exclusivityReleased(operation: String, category: String)
  case cancelled(operation: String, errors: [String], cause: CancelCause)
  case cancelTooLate(operation: String)
  case didStart(operation: String)
  case didProduce(operation: String, produced: String)
  case willFinish(operation: String, errors: [String], cancelled: Bool)
  case didFinish(operation: String, errors: [String], cancelled: Bool)
  case completion(operation: String)
  case cycleDetected(operations: [String])
  indirect case command(command: String, target: String, value: String?, source: CommandSource)
  /// A lint raised by the engine side (see `Lint`), at the time of the event that raised it. `subject`
  /// is the operation or queue it is about.
  indirect case warning(kind: String, subject: String, message: String)
  /// The engine could not do something asked of it (a scheduled enqueue of an operation already on a
  /// queue, a production of an unknown operation): nothing changed, and this says why.
  case refused(operation: String, reason: String)

  /// The JSON `type`.
  public var type: String { eventType.name }

  /// The event's type: the switch the compiler checks when a case is added.
  public var eventType: EventType {
    switch self {
    case .queueAdded: .queueAdded
    case .queueSuspended: .queueSuspended
    case .queueResumed: .queueResumed
    case .queueMaxConcurrent: .queueMaxConcurrent
    case .operationAdded: .operationAdded
    case .dependencyAdded: .dependencyAdded
    case .state: .state
    case .conditionStarted: .conditionStarted
    case .conditionResult: .conditionResult
    case .exclusivityWaiting: .exclusivityWaiting
    case .exclusivityAcquired: .exclusivityAcquired
    case .exclusivityReleased: .exclusivityReleased
    case .cancelled: .cancelled
    case .cancelTooLate: .cancelTooLate
    case .didStart: .didStart
    case .didProduce: .didProduce
    case .willFinish: .willFinish
    case .didFinish: .didFinish
    case .completion: .completion
    case .cycleDetected: .cycleDetected
    case .command: .command
    case .warning: .warning
    case .refused: .refused
    case .conditionWaiting: .conditionWaiting
    }
  }

  /// The operation the event is about, if any.
  public var operation: String? {
    switch self {
    case .operationAdded(let o, _, _, _, _, _, _, _, _), .dependencyAdded(let o, _),
      .state(let o, _, _, _),
      .conditionStarted(let o, _), .conditionResult(let o, _, _, _), .conditionWaiting(let o, _, _),
      .refused(let o, _),
      .exclusivityWaiting(let o, _, _),
      .exclusivityAcquired(let o, _), .exclusivityReleased(let o, _), .cancelled(let o, _, _),
      .cancelTooLate(let o), .didStart(let o), .didProduce(let o, _), .willFinish(let o, _, _),
      .didFinish(let o, _, _), .completion(let o):
      o
    case .queueAdded, .queueSuspended, .queueResumed, .queueMaxConcurrent, .cycleDetected, .command,
      .warning:
      nil
    }
  }

  /// The queue the event is about, if any.
  public var queue: String? {
    switch self {
    case .queueAdded(let q, _, _, _), .queueSuspended(let q), .queueResumed(let q),
      .queueMaxConcurrent(let q, _),
      .operationAdded(_, let q, _, _, _, _, _, _, _):
      q
    case .dependencyAdded, .state, .conditionWaiting, .conditionStarted,
      .conditionResult, .exclusivityWaiting, .exclusivityAcquired, .exclusivityReleased, .cancelled,
      .cancelTooLate, .didStart, .didProduce, .willFinish, .didFinish, .completion, .cycleDetected,
      .command, .warning, .refused:
      nil
    }
  }
}

/// Every event type of the contract, one case per `EventKind` case (docs/EVENTS.md). The case name
/// is the JSON `type`; the raw value indexes tables by type.
public enum EventType: Int, ContractName {
  case queueAdded
  case queueSuspended
  case queueResumed
  case queueMaxConcurrent
  case operationAdded
  case dependencyAdded
  case state
  case conditionStarted
  case conditionResult
  case exclusivityWaiting
  case exclusivityAcquired
  case exclusivityReleased
  case cancelled
  case cancelTooLate
  case didStart
  case didProduce
  case willFinish
  case didFinish
  case completion
  case cycleDetected
  case command
  case warning
  case refused
  case conditionWaiting

  public static let contractNames = ContractNames<Self>()
}
