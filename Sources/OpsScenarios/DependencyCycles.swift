/// Finds dependency cycles (strongly connected components, Tarjan's algorithm without recursion, so a
/// 100,000-operation chain cannot overflow the stack). Each cycle is returned as a path in dependency
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
    var order = [Int](repeating: -1, count: names.count)
    var low = [Int](repeating: 0, count: names.count)
    var onStack = [Bool](repeating: false, count: names.count)
    var stack: [Int] = []
    var counter = 0
    var components: [[Int]] = []

    for root in names.indices where order[root] < 0 {
      var work: [(node: Int, next: Int)] = [(root, 0)]
      order[root] = counter
      low[root] = counter
      counter += 1
      stack.append(root)
      onStack[root] = true
      while let (node, next) = work.last {
        if next < edges[node].count {
          work[work.count - 1].next += 1
          let m = edges[node][next]
          if order[m] < 0 {
            order[m] = counter
            low[m] = counter
            counter += 1
            stack.append(m)
            onStack[m] = true
            work.append((m, 0))
          } else if onStack[m] {
            low[node] = min(low[node], order[m])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last { low[parent.node] = min(low[parent.node], low[node]) }
        if low[node] == order[node] {
          var component: [Int] = []
          while let m = stack.popLast() {
            onStack[m] = false
            component.append(m)
            if m == node { break }
          }
          if component.count > 1 { components.append(component) }
        }
      }
    }
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
