/// The ready operations of one priority level, kept in enqueue order (Foundation's FIFO within a priority,
/// which is by when an operation was added, not when it became ready).
struct ReadyList {
  private(set) var items: [(order: Int, op: Int)] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }
  var count: Int { items.count - head }

  mutating func insert(op: Int, order: Int) {
    // Almost always appended: operations usually become ready in enqueue order.
    if let last = items.last, last.order > order, head < items.count {
      var lo = head
      var hi = items.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if items[mid].order < order { lo = mid + 1 } else { hi = mid }
      }
      items.insert((order, op), at: lo)
    } else {
      items.append((order, op))
    }
  }

  /// Positions from the front, for a scan that may skip some entries.
  var indices: Range<Int> { head..<items.count }
  subscript(i: Int) -> Int { items[i].op }

  mutating func remove(at i: Int) {
    if i == head {
      head += 1
      if head > 64 && head * 2 > items.count {
        items.removeFirst(head)
        head = 0
      }
    } else {
      items.remove(at: i)
    }
  }

  mutating func remove(op: Int) {
    if let i = indices.first(where: { items[$0].op == op }) { remove(at: i) }
  }
}
