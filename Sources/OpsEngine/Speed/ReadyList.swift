import DequeModule
import HeapModule
import OpsEvents

/// The ready operations of one priority level, taken in enqueue order (Foundation's FIFO within a
/// priority, which is by when an operation was added, not when it became ready).
///
/// Operations usually become ready in enqueue order: those are appended to a list. One that becomes
/// ready after a later one (a dependent whose dependency just finished, while operations added after
/// it were ready from the start) goes to a heap instead, and the next operation is the earlier of the
/// two heads. It was inserted into the list by position, which moved the whole tail: at limit 1 with
/// a million diamond-shaped operations the ready list held hundreds of thousands and each dependent
/// moved them all.
struct ReadyList {
  private struct Late: Comparable {
    let order: Int
    let op: Int
    static func < (a: Late, b: Late) -> Bool { a.order < b.order }
  }

  /// Increasing orders.
  private var items = Deque<(order: Int, op: Int)>()
  private var late = Heap<Late>()

  var isEmpty: Bool { items.isEmpty && late.isEmpty }
  var count: Int { items.count + late.count }

  mutating func insert(op: Int, order: Int) {
    if let last = items.last, last.order > order {
      late.insert(Late(order: order, op: op))
    } else {
      items.append((order, op))
    }
  }

  /// Removes and returns the ready operation added first, if any.
  mutating func popFirst() -> Int? {
    if let first = late.min, first.order < items.first?.order ?? Int.max {
      return late.removeMin().op
    }
    return items.popFirst()?.op
  }
}
