import OpsEvents

/// A queue's unfinished operations (Foundation's `operationCount`), by id, in no particular order:
/// readers that need the order sort by `OperationRecord.order`. Each record keeps its position, so
/// adding and removing take no hashing: the `Set<Int>` it replaces hashed every operation twice
/// under the live runtime's lock.
struct MemberList {
  private(set) var ids: [Int] = []

  var count: Int { ids.count }
  var isEmpty: Bool { ids.isEmpty }

  mutating func insert(_ op: OperationRecord) {
    precondition(op.memberPosition < 0, "\(op.name) is already a member of a queue")
    op.memberPosition = ids.count
    ids.append(op.id)
  }

  /// Removes `op` if it is a member (a barrier on an empty queue never was); the last member takes
  /// its place.
  mutating func remove(_ op: OperationRecord, in ops: ChunkedArray<OperationRecord>) {
    let p = op.memberPosition
    guard p >= 0 else { return }
    let last = ids.removeLast()
    if last != op.id {
      ids[p] = last
      ops[last].memberPosition = p
    }
    op.memberPosition = -1
  }
}
