import OpsEvents

/// cancel() on a finished operation does nothing.
public struct CancelledTooLateLint: Lint {
  public var kind: String { "cancelledTooLate" }
  public var eventTypes: Set<EventType>? { [.cancelTooLate] }
  public var summary: String { "an operation was cancelled after it had finished" }
  public var teaching: String {
    "cancel() on a finished operation does nothing: cancel earlier, or not at all."
  }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .cancelTooLate(let o) = event.kind else { return }
    out.raise(o, "\(o) was cancelled after it had finished.")
  }
}
