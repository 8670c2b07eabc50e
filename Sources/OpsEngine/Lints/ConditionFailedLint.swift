import OpsEvents

/// A condition failed: the operation is cancelled and never executes.
public struct ConditionFailedLint: Lint {
  public var kind: String { "conditionFailed" }
  public var eventTypes: Set<EventType>? { [.conditionResult] }
  public var summary: String { "a condition of an operation failed" }
  public var teaching: String {
    "The operation is cancelled with the condition's error and never executes."
  }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .conditionResult(let o, let c, .failed, let error) = event.kind else { return }
    out.raise(o, "Condition \(c) of \(o) failed\(error.map { " (\($0))" } ?? "").")
  }
}
