import OpsEngine
import OpsEvents
import OpsScenarios

extension Scenario {
  /// One line per operation describing how its work was set up, for the board's detail view.
  var workSettings: [String: String] {
    Dictionary(uniqueKeysWithValues: operations.map { ($0.spec.name, describe($0)) })
  }

  private func describe(_ op: ScenarioOperation) -> String {
    let spec = op.spec
    let w = spec.work
    var parts: [String] = []
    switch spec.kind {
    case .group: parts.append("group of \(spec.children.joined(separator: ", "))")
    case .block:
      parts.append("blocks \(w.blocks.map { formatSeconds($0) + "s" }.joined(separator: ", "))")
    default: parts.append("work \(formatSeconds(w.duration))s")
    }
    if spec.isAsync || !w.finishes {
      parts.append(w.finishes ? "async" : "async, never calls finish")
    }
    switch spec.cancellation {
    case .cooperative: parts.append("cooperative (checks every \(formatSeconds(w.checkEvery))s)")
    case .immediate: parts.append("finishes immediately when cancelled")
    case .ignored: parts.append("never checks isCancelled")
    }
    if let f = w.fails { parts.append("fails '\(f)'") }
    if let t = spec.timeout { parts.append("timeout \(formatSeconds(t))s") }
    if !w.produces.isEmpty {
      parts.append(
        "produces "
          + w.produces.map { "\($0.operation) at \(formatSeconds($0.at))s" }.joined(separator: ", ")
      )
    }
    if op.addedAt > 0 { parts.append("added at \(formatSeconds(op.addedAt))s") }
    if op.produced { parts.append("produced") }
    if spec.barrier { parts.append("barrier") }
    if spec.completion { parts.append("completion block") }
    return parts.joined(separator: ", ")
  }
}
