/// Strongly connected components of a directed graph given as adjacency lists (Tarjan's algorithm
/// without recursion, so a 100,000-node chain cannot overflow the stack). Only components of more than
/// one node are returned.
enum StronglyConnected {
  static func components(_ edges: [[Int]]) -> [[Int]] {
    let count = edges.count
    var order = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    var counter = 0
    var components: [[Int]] = []

    for root in 0..<count where order[root] < 0 {
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
    return components
  }

  /// A shortest path from `start` to `goal` using only `members` (breadth-first), or nil.
  static func path(from start: Int, to goal: Int, within members: Set<Int>, edges: [[Int]])
    -> [Int]?
  {
    if start == goal { return [start] }
    var previous: [Int: Int] = [start: start]
    var frontier = [start]
    var head = 0
    while head < frontier.count {
      let node = frontier[head]
      head += 1
      for m in edges[node] where members.contains(m) && previous[m] == nil {
        previous[m] = node
        if m == goal {
          var path = [m]
          while path.last! != start { path.append(previous[path.last!]!) }
          return path.reversed()
        }
        frontier.append(m)
      }
    }
    return nil
  }
}
