import OpsEvents

/// Dependency cycles, found as edges are linked. Adding "a depends on b" closes a cycle exactly when
/// a is reachable from b along dependencies. The search runs from both ends at once (forward from b along
/// dependencies, backward from a along dependents), always widening the side whose next step looks at
/// fewer edges, so a chain declared in either order costs a few steps per edge instead of the whole
/// chain (one side has nothing to follow yet). Iterative: no stack depth grows with the graph.
struct CycleDetector {
  /// Every cycle found, as operation ids in dependency order (each depends on the next, the last on
  /// the first).
  private(set) var found: [[Int]] = []
  private var reported: [Bool] = []
  private var byMember: [Int: [Int]] = [:]
  private var keys = Set<[Int]>()

  mutating func edgeAdded(from a: Int, to b: Int, in ops: ChunkedArray<OperationRecord>) {
    guard let cycle = Self.path(closing: a, b, in: ops) else { return }
    let key = cycle.sorted()
    guard keys.insert(key).inserted else { return }
    let index = found.count
    found.append(cycle)
    reported.append(false)
    for m in cycle { byMember[m, default: []].append(index) }
  }

  /// Whether any cycle was ever found.
  var hasAny: Bool { !found.isEmpty }

  /// The cycles through `op` not reported yet; marks them reported.
  mutating func unreported(through op: Int, in ops: ChunkedArray<OperationRecord>) -> [[Int]] {
    guard let indices = byMember[op] else { return [] }
    var out: [[Int]] = []
    for i in indices where !reported[i] {
      // A cycle is only news while none of its members has finished (a cancel breaks it).
      guard found[i].allSatisfy({ ops[$0].state != .finished }) else { continue }
      reported[i] = true
      // Start at `op`, as a reader expects the operation being added to come first.
      let c = found[i]
      let start = c.firstIndex(of: op) ?? 0
      out.append(Array(c[start...] + c[..<start]))
    }
    return out
  }

  /// One step of one side: follows `edges` from the frontier to unfinished operations not seen yet,
  /// recording where each was reached from. Returns an operation the other side has reached, if any.
  private static func expand(
    _ frontier: inout [Int], _ parents: inout [Int: Int], meeting other: [Int: Int],
    in ops: ChunkedArray<OperationRecord>, edges: (OperationRecord) -> IDList
  ) -> Int? {
    var next: [Int] = []
    for x in frontier {
      for d in edges(ops[x]) where ops[d].state != .finished && parents[d] == nil {
        parents[d] = x
        if other[d] != nil { return d }
        next.append(d)
      }
    }
    frontier = next
    return nil
  }

  /// The cycle a → b → … → a that the new edge "a depends on b" closes, or nil.
  static func path(closing a: Int, _ b: Int, in ops: ChunkedArray<OperationRecord>) -> [Int]? {
    if a == b { return [a] }
    // Nothing depends on a, or b depends on nothing: b cannot lead back to a. The usual edge (a new
    // operation naming earlier ones) is settled here, without a search or an allocation.
    if ops[a].dependents.isEmpty || ops[b].dependencies.isEmpty { return nil }
    // forward[x]: the node x was reached from, going from b along dependencies.
    var forward: [Int: Int] = [b: b]
    // backward[x]: the node x was reached from, going from a along dependents (x depends on it).
    var backward: [Int: Int] = [a: a]
    var forwardFrontier = [b]
    var backwardFrontier = [a]
    var meet: Int?
    func cost(_ frontier: [Int], _ edges: (OperationRecord) -> Int) -> Int {
      frontier.reduce(0) { $0 + edges(ops[$1]) }
    }
    while meet == nil, !forwardFrontier.isEmpty, !backwardFrontier.isEmpty {
      if cost(forwardFrontier, { $0.dependencies.count })
        <= cost(backwardFrontier, { $0.dependents.count })
      {
        meet = expand(&forwardFrontier, &forward, meeting: backward, in: ops) { $0.dependencies }
      } else {
        meet = expand(&backwardFrontier, &backward, meeting: forward, in: ops) { $0.dependents }
      }
    }
    guard let m = meet else { return nil }
    // b … m along forward parents (reversed), then m … a along backward parents.
    var head: [Int] = []
    var x = m
    while x != b {
      head.append(x)
      x = forward[x]!
    }
    head.append(b)
    head.reverse()
    var tail: [Int] = []
    x = backward[m]!
    if m != a {
      while x != a {
        tail.append(x)
        x = backward[x]!
      }
    }
    // The cycle reads a → b → … → m → … → (the one that depends on a) → a.
    let body = (head + tail).filter { $0 != a }
    return [a] + body
  }
}
