/// Finds operations that can never finish because of how groups add and wait for their children: a
/// group that depends on its own child (the child is only added when the group starts), a child that
/// depends on its group (the group finishes only after its children), or the same through
/// grandchildren, producers and chains of dependencies.
///
/// Each operation is two nodes, "starts" and "finishes", with an edge from what must happen first's
/// dependent to it; a cycle that goes through a group's or a producer's edge can never be entered.
/// Cycles made of dependencies alone are `DependencyCycles`' to report.
enum GroupDeadlocks {
  enum Reason: Equatable {
    /// F(op) → S(op): an operation finishes only after it has started.
    case runs
    /// S(op) → F(dep): it starts only after the dependency has finished.
    case dependency
    /// F(group) → F(child): a group finishes only after its children (and what they produce into it).
    case groupWaits
    /// S(child) → S(group): a child is added only when its group starts.
    case addedByGroup
    /// S(produced) → S(producer): a produced operation is added only while its producer executes.
    case addedByProducer
  }

  /// One warning per deadlock, in the order of the operation declared first in it.
  static func find(in operations: [ScenarioOperation]) -> [String] {
    // Without groups or producers, every cycle is a plain dependency cycle.
    guard
      operations.contains(where: { !$0.spec.children.isEmpty || !$0.spec.work.produces.isEmpty })
    else { return [] }
    let names = operations.map(\.spec.name)
    let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    func starts(_ i: Int) -> Int { 2 * i }
    func finishes(_ i: Int) -> Int { 2 * i + 1 }
    var edges = [[Int]](repeating: [], count: 2 * operations.count)
    var reasons = [[Reason]](repeating: [], count: 2 * operations.count)
    func add(_ from: Int, _ to: Int, _ reason: Reason) {
      edges[from].append(to)
      reasons[from].append(reason)
    }
    var groupOf: [Int: Int] = [:]
    for (g, op) in operations.enumerated() {
      for c in op.spec.children.compactMap({ index[$0] }) { groupOf[c] = g }
    }
    for (i, op) in operations.enumerated() {
      add(finishes(i), starts(i), .runs)
      let conditionDeps = op.spec.conditions.filter { !$0.silent }.compactMap(\.dependency)
      for d in (op.spec.dependencies + conditionDeps).compactMap({ index[$0] }) {
        add(starts(i), finishes(d), .dependency)
      }
      for c in op.spec.children.compactMap({ index[$0] }) {
        add(finishes(i), finishes(c), .groupWaits)
        add(starts(c), starts(i), .addedByGroup)
      }
      for p in op.spec.work.produces.compactMap({ index[$0.operation] }) {
        add(starts(p), starts(i), .addedByProducer)
        // What a child produces joins its group's inner queue: the group waits for it too.
        if let g = groupOf[i] { add(finishes(g), finishes(p), .groupWaits) }
      }
    }

    var warnings: [(first: Int, text: String)] = []
    for component in StronglyConnected.components(edges) {
      let members = Set(component)
      // A cycle through the first (in node order) edge that is not a plain dependency.
      let structural = component.sorted().lazy.compactMap { from -> (Int, Int)? in
        guard
          let k = edges[from].indices.first(where: { k in
            members.contains(edges[from][k]) && ![.runs, .dependency].contains(reasons[from][k])
          })
        else { return nil }
        return (from, edges[from][k])
      }.first
      guard let (from, to) = structural,
        let back = StronglyConnected.path(from: to, to: from, within: members, edges: edges)
      else { continue }
      let cycle = [from] + back.dropLast()
      warnings.append(describe(cycle, names: names, edges: edges, reasons: reasons))
    }
    return warnings.sorted { $0.first < $1.first }.map(\.text)
  }

  /// `'g' and 'c' can never finish: 'g' waits for 'c' to finish, but 'c' is added only when its group
  /// 'g' starts`. Starts the story at the operation declared first.
  private static func describe(
    _ cycle: [Int], names: [String], edges: [[Int]], reasons: [[Reason]]
  ) -> (first: Int, text: String) {
    let first = cycle.map { $0 / 2 }.min()!
    let rotation =
      cycle.firstIndex { $0 / 2 == first && $0 % 2 == 1 } ?? cycle.firstIndex {
        $0 / 2 == first
      }!
    let ordered = Array(cycle[rotation...] + cycle[..<rotation])
    var members: [Int] = []
    var steps: [String] = []
    for (k, node) in ordered.enumerated() {
      let next = ordered[(k + 1) % ordered.count]
      let a = "'\(names[node / 2])'"
      let b = "'\(names[next / 2])'"
      if !members.contains(node / 2) { members.append(node / 2) }
      // The most telling reason when two edges join the same nodes (a child that is also a dependency).
      let kinds = edges[node].indices.filter { edges[node][$0] == next }.map { reasons[node][$0] }
      let reason = kinds.first { $0 != .dependency } ?? kinds[0]
      switch reason {
      case .runs: continue
      case .dependency: steps.append("\(a) waits for \(b) to finish")
      case .groupWaits: steps.append("\(a) finishes only after its child \(b)")
      case .addedByGroup: steps.append("\(a) is added only when its group \(b) starts")
      case .addedByProducer: steps.append("\(a) is added only when \(b) executes")
      }
    }
    let who = listing(members.map { "'\(names[$0])'" }, conjunction: "and")
    return (
      first,
      "\(who) can never finish: " + steps.joined(separator: "; ")
        + " (a group adds its children when it starts and finishes after them)"
    )
  }
}
