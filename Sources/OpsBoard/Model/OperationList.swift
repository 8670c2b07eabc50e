import OpsEngine

/// The operations the table lists: all of them in add order, or those matching a filter. Kept
/// incrementally so a frame never scans every operation: name and queue matches are computed once per
/// operation; only a query that names a state (or `cancelled`) rescans, and only when the model changed.
struct OperationList {
  private(set) var query = ""
  /// Model indices of the matching operations, ascending; nil when there is no filter.
  private(set) var indices: [Int]?
  private var staticMatch: [Bool] = []
  private var states: Set<OperationState> = []
  private var matchesCancelled = false
  private var seenVersion = -1
  /// How many operations were examined by the last `update` (tests check it stays small).
  private(set) var lastScanned = 0

  var isFiltered: Bool { indices != nil }

  mutating func setQuery(_ q: String) {
    guard q != query else { return }
    query = q
    staticMatch = []
    seenVersion = -1
    let needle = q.lowercased()
    states =
      needle.isEmpty
      ? [] : Set(OperationState.allCases.filter { $0.rawValue.lowercased().contains(needle) })
    matchesCancelled = !needle.isEmpty && "cancelled".contains(needle)
    indices = q.isEmpty ? nil : []
  }

  /// Brings the list up to date with the model.
  mutating func update(_ model: BoardModel) {
    lastScanned = 0
    guard !query.isEmpty, model.version != seenVersion else { return }
    seenVersion = model.version
    let needle = query.lowercased()
    let ops = model.operations
    let dynamic = !states.isEmpty || matchesCancelled
    // Time travel shows a model with fewer operations: start over from it.
    if ops.count < staticMatch.count {
      staticMatch = []
      indices = []
    }
    if staticMatch.count < ops.count {
      for i in staticMatch.count..<ops.count {
        staticMatch.append(
          ops[i].name.lowercased().contains(needle) || ops[i].queue.lowercased().contains(needle))
        lastScanned += 1
        if !dynamic && staticMatch[i] { indices!.append(i) }
      }
    }
    guard dynamic else { return }
    var result: [Int] = []
    for i in ops.indices
    where staticMatch[i] || states.contains(ops[i].state) || (matchesCancelled && ops[i].cancelled)
    {
      result.append(i)
    }
    lastScanned += ops.count
    indices = result
  }

  func count(_ model: BoardModel) -> Int { indices?.count ?? model.operations.count }

  func modelIndex(at position: Int) -> Int { indices.map { $0[position] } ?? position }

  /// Position of a model index in the list, or the position of the next one after it.
  func position(of modelIndex: Int) -> (position: Int, exact: Bool) {
    guard let list = indices else { return (modelIndex, true) }
    var lo = 0
    var hi = list.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if list[mid] < modelIndex { lo = mid + 1 } else { hi = mid }
    }
    return (lo, lo < list.count && list[lo] == modelIndex)
  }
}
