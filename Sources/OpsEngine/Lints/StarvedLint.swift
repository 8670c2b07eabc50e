import OpsEvents

/// A ready operation overtaken again and again by higher priorities.
public struct StarvedLint: Lint {
  public var kind: String { "starved" }
  public var eventTypes: Set<EventType>? { [.state] }
  public var states: Set<OperationState>? { [.executing] }
  public var summary: String { "a ready operation keeps being overtaken by higher priorities" }
  public var teaching: String { "A steady stream of higher priorities can starve it." }
  /// Overtaken this many times while ready counts as starved.
  public static let threshold = 4

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    // Only a start can overtake: look at those it just overtook.
    for name in p.lastOvertaken {
      guard let op = p.operation(named: name), op.overtakenBy.count >= Self.threshold else {
        continue
      }
      out.raise(
        op.name,
        "\(op.name) (\(op.priority.rawValue)) has been ready since \(fixed3(op.readySince ?? event.time))s "
          + "while \(op.overtakenBy.count) higher-priority operations started before it.")
    }
  }
}
