import OpsEngine
import OpsEvents

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

/// A mutual-exclusivity category and the operations that share it: one of them at a time executes.
/// The graphs draw it as a node of its own joined to each member, since the category, not a pair of
/// operations, is what they wait for.
struct ExclusivityGroup: Sendable {
  let category: String
  /// Projection indices in add order, each with where it stands with the category's lock.
  let members: [(index: Int, status: ConditionInfo.Status)]

  /// What an edge to a member says: only a lock held or waited for is worth a word (at `--until`).
  static func edgeLabel(_ status: ConditionInfo.Status) -> String? {
    switch status {
    case .holdsLock: "holds the lock"
    case .waitingForExclusivity: "waits for the lock"
    default: nil
    }
  }
}

extension Projection {
  /// The exclusivity categories two or more operations share, in the order they first appear.
  var exclusivityGroups: [ExclusivityGroup] {
    var order: [String] = []
    var members: [String: [(index: Int, status: ConditionInfo.Status)]] = [:]
    for op in operations where !op.conditions.isEmpty {
      for c in op.conditions {
        guard let category = c.category else { continue }
        if members[category] == nil { order.append(category) }
        members[category, default: []].append((op.index, c.status))
      }
    }
    return order.compactMap { category in
      guard let m = members[category], m.count >= 2 else { return nil }
      return ExclusivityGroup(category: category, members: m)
    }
  }
}
