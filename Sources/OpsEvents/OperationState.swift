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
