import OpsEvents

/// A finished dependency counts whatever its outcome: dependents of a cancelled or failed operation run.
public struct RanAfterFailedDependencyLint: Lint {
  public var kind: String { "ranAfterFailedDependency" }
  public var eventTypes: Set<EventType>? { [.didStart] }
  public var summary: String { "an operation ran although a dependency was cancelled or failed" }
  public var teaching: String {
    "A finished dependency counts whatever its outcome. Add a noFailedDependencies condition, or "
      + "check the dependency's outcome in the work, to stop it."
  }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    // Nothing to find while no operation the projection knows was cancelled or failed: the
    // lookup of every dependency of every start was ~575 instructions an operation on the live
    // runtime's delivery (diamonds, limit 1).
    guard p.traits.cancelled > 0 || p.traits.errors > 0 else { return }
    // Fields read in place: copying whole records (every field retained) on every start was
    // measurable at 50,000 operations.
    guard case .didStart(let o) = event.kind, let i = p.index(ofOperation: o) else { return }
    for d in p.operations.read(i, { $0.pointee.dependencies }) {
      guard let j = p.index(ofOperation: d) else { continue }
      let (cancelled, failed) = p.operations.read(j) {
        ($0.pointee.cancelled, !$0.pointee.errors.isEmpty)
      }
      guard cancelled || failed else { continue }
      out.raise(
        o, "\(o) ran although its dependency \(d) \(cancelled ? "was cancelled" : "failed").")
      return
    }
  }
}
