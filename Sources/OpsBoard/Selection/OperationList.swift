import OpsEngine
import OpsEvents

/// The operations the table lists and their order: every operation in add order (children under
/// their group), or what the filter, the quick filters and hide-finished leave, sorted.
///
/// Kept incrementally where it can be, so a frame never scans every operation: with only a name or
/// queue filter, matches are computed once per operation. Anything that depends on state (a state
/// word in the filter, a state quick filter, hide finished, a sort, groups) is rebuilt when the
/// model changes, not per frame.
struct OperationList {
  private(set) var query = ""
  private(set) var sort = OperationSort.added
  private(set) var descending = false
  private(set) var hideFinished = false
  private(set) var queueFilter: String?
  private(set) var stateFilter: StateFilter?
  /// Groups whose children are hidden.
  private(set) var collapsed: Set<String> = []

  /// Model indices in display order; nil: every operation in add order.
  private(set) var rows: [Int]?
  /// Display position of each model index (-1: not listed), when `rows` is not ascending.
  private var positions: [Int] = []
  private var ascending = true
  /// Tree depth of each model index (empty when no operation has a parent).
  private(set) var depth: [Int] = []
  /// How many children each model index has.
  private(set) var childCount: [Int] = []
  private var staticMatch: [Bool] = []
  private var queryStates: Set<OperationState> = []
  private var queryCancelled = false
  private var seenVersion = -1
  private var treeChecked = 0
  private var hasTree = false
  /// How many operations were examined by the last `update` (tests check it stays small).
  private(set) var lastScanned = 0

  /// Something hides operations or reorders them (the title then says so).
  var isFiltered: Bool {
    !query.isEmpty || hideFinished || queueFilter != nil || stateFilter != nil
  }

  private var needsRebuild: Bool {
    sort != .added || hideFinished || stateFilter != nil || !queryStates.isEmpty
      || queryCancelled || hasTree
  }

  private mutating func invalidate() {
    seenVersion = -1
  }

  mutating func setQuery(_ q: String) {
    guard q != query else { return }
    query = q
    staticMatch = []
    let needle = q.lowercased()
    queryStates =
      needle.isEmpty
      ? [] : Set(OperationState.allCases.filter { $0.rawValue.lowercased().contains(needle) })
    queryCancelled = !needle.isEmpty && "cancelled".contains(needle)
    rows = nil
    invalidate()
  }

  mutating func setSort(_ s: OperationSort, descending d: Bool) {
    sort = s
    descending = d
    invalidate()
  }

  mutating func setHideFinished(_ h: Bool) {
    hideFinished = h
    invalidate()
  }

  mutating func setQueueFilter(_ q: String?) {
    queueFilter = q
    staticMatch = []
    rows = nil
    invalidate()
  }

  mutating func setStateFilter(_ f: StateFilter?) {
    stateFilter = f
    invalidate()
  }

  mutating func toggleCollapsed(_ group: String) {
    if collapsed.remove(group) == nil { collapsed.insert(group) }
    invalidate()
  }

  /// Brings the list up to date with the model.
  mutating func update(_ model: BoardModel) {
    lastScanned = 0
    guard model.version != seenVersion else { return }
    seenVersion = model.version
    let ops = model.operations
    // Time travel shows a model with fewer operations: start over from it.
    if ops.count < staticMatch.count || ops.count < treeChecked {
      staticMatch = []
      treeChecked = 0
      hasTree = false
      rows = nil
    }
    for i in treeChecked..<ops.count where ops[i].parent != nil { hasTree = true }
    treeChecked = ops.count
    let staticOnly = !needsRebuild
    if staticOnly && query.isEmpty && queueFilter == nil {
      rows = nil
      depth = []
      childCount = []
      ascending = true
      return
    }
    if staticMatch.count < ops.count {
      if staticMatch.isEmpty { rows = [] }
      for i in staticMatch.count..<ops.count {
        staticMatch.append(matchesStatically(ops[i]))
        lastScanned += 1
        if staticOnly && staticMatch[i] { rows!.append(i) }
      }
    }
    ascending = true
    depth = []
    childCount = []
    guard !staticOnly else { return }
    rebuild(model)
  }

  private func matchesStatically(_ op: OperationInfo) -> Bool {
    if let q = queueFilter, op.queue != q { return false }
    guard !query.isEmpty else { return true }
    let needle = query.lowercased()
    return op.name.lowercased().contains(needle) || op.queue.lowercased().contains(needle)
  }

  private mutating func rebuild(_ model: BoardModel) {
    let ops = model.operations
    var order = Array(ops.indices)
    if hasTree { order = treeOrder(model) }
    var kept: [Int] = []
    kept.reserveCapacity(order.count)
    let queryOn = !query.isEmpty
    for i in order {
      let op = ops[i]
      var match = staticMatch[i]
      if queryOn && !match {
        match = queryStates.contains(op.state) || (queryCancelled && op.cancelled)
        if let q = queueFilter, op.queue != q { match = false }
      }
      if match, let f = stateFilter, !f.matches(op) { match = false }
      if match && hideFinished && op.state == .finished { match = false }
      if match { kept.append(i) }
    }
    lastScanned += ops.count
    if sort != .added { kept = sort.sorted(kept, in: model, descending: descending) }
    if descending && sort == .added { kept.reverse() }
    rows = kept
    ascending = !hasTree && sort == .added && !descending
    if !ascending {
      positions = Array(repeating: -1, count: ops.count)
      for (p, i) in kept.enumerated() { positions[i] = p }
    }
  }

  /// Add order, with each group's children (and theirs) right under it; collapsed groups hide them.
  private mutating func treeOrder(_ model: BoardModel) -> [Int] {
    let ops = model.operations
    var children = [[Int]](repeating: [], count: ops.count)
    var roots: [Int] = []
    for (i, op) in ops.enumerated() {
      if let p = op.parent, let j = model.index(ofOperation: p), j < i {
        children[j].append(i)
      } else {
        roots.append(i)
      }
    }
    depth = Array(repeating: 0, count: ops.count)
    childCount = children.map(\.count)
    var order: [Int] = []
    order.reserveCapacity(ops.count)
    var stack = roots.reversed().map { ($0, 0) }
    while let (i, d) = stack.popLast() {
      order.append(i)
      depth[i] = d
      if !collapsed.contains(ops[i].name) {
        for c in children[i].reversed() { stack.append((c, d + 1)) }
      }
    }
    return order
  }

  func count(_ model: BoardModel) -> Int { rows?.count ?? model.operations.count }

  func modelIndex(at position: Int) -> Int { rows.map { $0[position] } ?? position }

  /// Position of a model index in the list; when it is not listed, the position of the next one
  /// after it in add order.
  func position(of modelIndex: Int) -> (position: Int, exact: Bool) {
    guard let list = rows else { return (modelIndex, true) }
    if !ascending {
      if modelIndex >= 0 && modelIndex < positions.count && positions[modelIndex] >= 0 {
        return (positions[modelIndex], true)
      }
      return (list.firstIndex { $0 > modelIndex } ?? list.count, false)
    }
    var lo = 0
    var hi = list.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if list[mid] < modelIndex { lo = mid + 1 } else { hi = mid }
    }
    return (lo, lo < list.count && list[lo] == modelIndex)
  }
}
