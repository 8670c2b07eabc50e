/// Finds dependency cycles (strongly connected components of the dependency graph). Each cycle is returned as a path in dependency
/// order, starting from its operation declared first.
enum DependencyCycles {
  /// `index`: each operation's position in `operations` by name (the validator's).
  static func find(in operations: [ScenarioOperation], index: [String: Int]) -> [[String]] {
    let names = operations.indices.map { operations[$0].spec.name }
    // An operation waits for its dependencies and for the operations its conditions add.
    let edges: [[Int]] = operations.indices.map { i in
      var edges: [Int] = []
      for name in operations[i].spec.dependencies {
        if let d = index[name] { edges.append(d) }
      }
      for condition in operations[i].spec.conditions where !condition.silent {
        if let name = condition.dependency, let d = index[name] { edges.append(d) }
      }
      return edges
    }
    let components = StronglyConnected.components(edges)
    return components.map { path(through: Set($0), edges: edges).map { names[$0] } }
      .sorted { index[$0[0]]! < index[$1[0]]! }
  }

  /// A simple cycle inside one component, from its first-declared member back to it.
  private static func path(through members: Set<Int>, edges: [[Int]]) -> [Int] {
    let start = members.min()!
    // Breadth-first from start's dependencies back to start gives a shortest cycle.
    var previous: [Int: Int] = [:]
    var frontier = [start]
    var head = 0
    while head < frontier.count {
      let node = frontier[head]
      head += 1
      for m in edges[node] where members.contains(m) {
        if m == start {
          var path = [node]
          while path.last! != start { path.append(previous[path.last!]!) }
          return path.reversed()
        }
        if previous[m] == nil {
          previous[m] = node
          frontier.append(m)
        }
      }
    }
    return members.sorted()
  }
}
