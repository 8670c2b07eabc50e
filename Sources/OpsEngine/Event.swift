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
  case queueAdded(queue: String, maxConcurrent: Int?, suspended: Bool, qos: QualityOfService)
  case queueSuspended(queue: String)
  case queueResumed(queue: String)
  case queueMaxConcurrent(queue: String, value: Int?)
  indirect case operationAdded(
    operation: String, queue: String, priority: QueuePriority, qos: QualityOfService,
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

  /// The JSON `type`: its name in `typeNames`.
  public var type: String { Self.typeNames[typeIndex] }

  /// The event's type as a small number, for tables by event type (`type` is its name).
  var typeIndex: Int {
    switch self {
    case .queueAdded: 0
    case .queueSuspended: 1
    case .queueResumed: 2
    case .queueMaxConcurrent: 3
    case .operationAdded: 4
    case .dependencyAdded: 5
    case .state: 6
    case .conditionStarted: 7
    case .conditionResult: 8
    case .exclusivityWaiting: 9
    case .exclusivityAcquired: 10
    case .exclusivityReleased: 11
    case .cancelled: 12
    case .cancelTooLate: 13
    case .didStart: 14
    case .didProduce: 15
    case .willFinish: 16
    case .didFinish: 17
    case .completion: 18
    case .cycleDetected: 19
    case .command: 20
    case .warning: 21
    case .refused: 22
    case .conditionWaiting: 23
    }
  }

  /// Every `type`, by `typeIndex`: the one list of the contract's type names (docs/EVENTS.md).
  static let typeNames = [
    "queueAdded", "queueSuspended", "queueResumed", "queueMaxConcurrent", "operationAdded",
    "dependencyAdded", "state", "conditionStarted", "conditionResult", "exclusivityWaiting",
    "exclusivityAcquired", "exclusivityReleased", "cancelled", "cancelTooLate", "didStart",
    "didProduce", "willFinish", "didFinish", "completion", "cycleDetected", "command", "warning",
    "refused", "conditionWaiting",
  ]

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
    default: nil
    }
  }

  /// The queue the event is about, if any.
  public var queue: String? {
    switch self {
    case .queueAdded(let q, _, _, _), .queueSuspended(let q), .queueResumed(let q),
      .queueMaxConcurrent(let q, _),
      .operationAdded(_, let q, _, _, _, _, _, _, _):
      q
    default: nil
    }
  }
}
