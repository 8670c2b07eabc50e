import OpsEvents

/// Operations in a dependency cycle never become ready; OperationQueue never says so.
public struct DependencyCycleLint: Lint {
  public var kind: String { "dependencyCycle" }
  public var eventTypes: Set<EventType>? { [.cycleDetected] }
  public var summary: String { "an operation is part of a dependency cycle" }
  public var teaching: String {
    "None of them can ever become ready and OperationQueue never reports it: the operations simply "
      + "never run. Cancelling one member breaks the cycle."
  }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .cycleDetected(let ops) = event.kind else { return }
    for o in ops { out.raise(o, "\(o) is in a dependency cycle (\(cycleText(ops))).") }
  }
}
