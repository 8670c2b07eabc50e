/// Finds dependency cycles (strongly connected components of the dependency graph). Each cycle is returned as a path in dependency
/// order, starting from its operation declared first.
enum DependencyCycles {
  static func find(in operations: [ScenarioOperation]) -> [[String]] {
    let names = operations.map(\.spec.name)
    let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    // An operation waits for its dependencies and for the operations its conditions add.
    let edges: [[Int]] = operations.map { op in
      let conditionDeps = op.spec.conditions.filter { !$0.silent }.compactMap(\.dependency)
      return (op.spec.dependencies + conditionDeps).compactMap { index[$0] }
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
