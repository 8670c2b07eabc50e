/// The lifecycle of an operation. States only move forward; being cancelled is a flag, not a state.
public enum OperationState: String, Codable, Sendable, CaseIterable, Comparable {
  case initialized, pending, evaluatingConditions, ready, executing, finishing, finished

  public static func < (a: Self, b: Self) -> Bool { a.order < b.order }
  public var order: Int {
    switch self {
    case .initialized: 0
    case .pending: 1
    case .evaluatingConditions: 2
    case .ready: 3
    case .executing: 4
    case .finishing: 5
    case .finished: 6
    }
  }
}

/// Foundation's `Operation.QueuePriority`, with its raw values.
public enum QueuePriority: String, Codable, Sendable, CaseIterable {
  case veryLow, low, normal, high, veryHigh

  /// 0 (veryLow) … 4 (veryHigh): an index for per-priority lists.
  public var level: Int {
    switch self {
    case .veryLow: 0
    case .low: 1
    case .normal: 2
    case .high: 3
    case .veryHigh: 4
    }
  }

  public var value: Int {
    switch self {
    case .veryLow: -8
    case .low: -4
    case .normal: 0
    case .high: 4
    case .veryHigh: 8
    }
  }
}

/// Foundation's `QualityOfService`.
public enum QualityOfService: String, Codable, Sendable, CaseIterable {
  case userInteractive, userInitiated, utility, background, `default`

  /// The priority Foundation derives for an operation without an explicit one on a non-serial queue.
  public var derivedPriority: QueuePriority {
    switch self {
    case .userInteractive: .veryHigh
    case .userInitiated: .high
    case .utility: .low
    case .background: .veryLow
    case .default: .normal
    }
  }
}

/// What the work of an executing operation does when it is cancelled.
public enum CancellationMode: String, Codable, Sendable, CaseIterable {
  /// The work checks `isCancelled` at intervals and finishes early (the default).
  case cooperative
  /// The operation finishes at once (Operations 2.x / PSOperations behaviour).
  case immediate
  /// The work never checks and runs to its end.
  case ignored
}

public enum OperationKind: String, Codable, Sendable, CaseIterable {
  case plain, block, async, group, barrier
}

public enum ConditionResult: String, Codable, Sendable {
  case satisfied, failed
}

public enum CancelCause: String, Codable, Sendable {
  case command, timeout, parent, condition, action
}

public enum CommandSource: String, Codable, Sendable {
  case key, action, api
}

/// The four flags of the NSOperation state machine, derived from the richer lifecycle.
public struct OperationFlags: Equatable, Sendable, Codable {
  public var isReady: Bool
  public var isExecuting: Bool
  public var isFinished: Bool
  public var isCancelled: Bool

  public init(state: OperationState, cancelled: Bool) {
    // Foundation's isReady stays true once the dependencies are done, through execution and after.
    isReady = state >= .ready
    isExecuting = state == .executing
    isFinished = state == .finished
    isCancelled = cancelled
  }
}
