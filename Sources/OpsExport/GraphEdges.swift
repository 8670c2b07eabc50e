import OpsEngine

/// The edges of the dependency graph that dot and Mermaid draw, read from the projection, in a
/// fixed order: each operation's dependencies, then who produced it, its group, and the operations
/// its conditions produced and waited for.
struct GraphEdge: Sendable {
  enum Kind: String, CaseIterable, Sendable {
    /// `from` must finish before `to` may start.
    case dependency
    /// `from` added `to` while executing.
    case produces
    /// `to` is a child of the group `from`.
    case child
    /// A condition of `to` produced `from` and waited for it.
    case condition
  }

  let kind: Kind
  let from: Int
  let to: Int
  /// The condition's label for `.condition`.
  let label: String?
  /// Both ends belong to a reported dependency cycle.
  let inCycle: Bool
}

extension Projection {
  var graphEdges: [GraphEdge] {
    var edges: [GraphEdge] = []
    for op in operations {
      for d in op.dependencies {
        guard let j = index(ofOperation: d) else { continue }
        let cyclic = op.inCycle && operations[j].inCycle
        edges.append(
          GraphEdge(kind: .dependency, from: j, to: op.index, label: nil, inCycle: cyclic))
      }
      if let by = op.producedBy, let j = index(ofOperation: by) {
        edges.append(GraphEdge(kind: .produces, from: j, to: op.index, label: nil, inCycle: false))
      }
      if let g = op.parent, let j = index(ofOperation: g) {
        edges.append(GraphEdge(kind: .child, from: j, to: op.index, label: nil, inCycle: false))
      }
      for c in op.conditions {
        guard let d = c.dependency, let j = index(ofOperation: d) else { continue }
        edges.append(
          GraphEdge(kind: .condition, from: j, to: op.index, label: c.name, inCycle: false))
      }
    }
    return edges
  }
}

extension OperationInfo {
  /// The second line of a node: how it ended, or the state it is in and since when.
  var statusLine: String {
    let outcome = Outcome(self)
    if state == .finished { return "\(outcome.label) at \(fixed3(finishedAt ?? enteredState))s" }
    return "\(outcome.label) since \(fixed3(enteredState))s" + (cancelled ? ", cancelled" : "")
  }
}
