/// A finished dependency counts whatever its outcome: dependents of a cancelled or failed operation run.
public struct RanAfterFailedDependencyLint: Lint {
  public let kind = "ranAfterFailedDependency"
  public let summary = "an operation ran although a dependency was cancelled or failed"
  public let teaching =
    "A finished dependency counts whatever its outcome. Add a noFailedDependencies condition, or "
    + "check the dependency's outcome in the work, to stop it."

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .didStart(let o) = event.kind, let op = p.operation(named: o) else { return }
    for d in op.dependencies {
      guard let dep = p.operation(named: d), dep.cancelled || !dep.errors.isEmpty else { continue }
      out.raise(
        o, "\(o) ran although its dependency \(d) \(dep.cancelled ? "was cancelled" : "failed").")
      return
    }
  }
}
