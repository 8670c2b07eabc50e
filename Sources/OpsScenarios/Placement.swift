import OpsEvents

/// Which queue each operation ends up on. Operations added directly go to their `queue` (or the first
/// queue); a child goes to its group's inner queue; a produced operation goes where its adder puts it.
/// Worked out breadth-first from the directly added operations, so it also finds operations that can
/// never be added (their adders are never added either, e.g. two groups containing each other).
struct Placement {
  let adders: [[Adder]]
  let parents: [Int: (group: Int, ref: NameRef)]
  /// nil: never added.
  private(set) var queue: [String?]
  /// Every queue some adder would put the operation on.
  private(set) var possibleQueues: [Set<String>]

  init(
    ops: [OperationDraft], adders: [[Adder]], parents: [Int: (group: Int, ref: NameRef)],
    firstQueue: String
  ) {
    self.adders = adders
    self.parents = parents
    queue = Array(repeating: nil, count: ops.count)
    possibleQueues = Array(repeating: [], count: ops.count)
    var added: [[(to: Int, intoGroup: Bool)]] = Array(repeating: [], count: ops.count)
    for (target, list) in adders.enumerated() {
      for a in list where !a.silent { added[a.from].append((target, a.intoGroup)) }
    }
    var frontier: [Int] = []
    for i in ops.indices where !ops[i].produced && parents[i] == nil {
      queue[i] = ops[i].queue?.name ?? firstQueue
      frontier.append(i)
    }
    var head = 0
    while head < frontier.count {
      let from = frontier[head]
      head += 1
      for (to, intoGroup) in added[from] {
        let q = intoGroup ? GroupQueueName.inner(of: ops[from].name.name) : queue[from]!
        possibleQueues[to].insert(q)
        if queue[to] == nil {
          queue[to] = q
          frontier.append(to)
        }
      }
    }
  }

  func isChild(_ i: Int) -> Bool { parents[i] != nil }
}
