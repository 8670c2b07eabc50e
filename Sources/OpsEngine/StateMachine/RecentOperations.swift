import OpsEvents

/// The operations the engine created last, newest first, by name and id. A program names the
/// operations it just added as the dependencies of the next (a chain, a diamond), and comparing a
/// short name costs less than hashing it for the name index (~400 instructions a lookup, under the
/// live runtime's lock). An entry may be stale: its operation retired, or its name refused; the
/// caller checks what the id holds.
struct RecentOperations {
  static let capacity = 4
  private var names = Array(repeating: "", count: RecentOperations.capacity)
  private var ids = Array(repeating: -1, count: RecentOperations.capacity)
  /// Where the next entry goes (the oldest is overwritten).
  private var next = 0

  mutating func note(_ name: String, id: Int) {
    names[next] = name
    ids[next] = id
    next = (next + 1) % Self.capacity
  }

  /// The id of the newest entry named `name`, if any.
  func id(of name: String) -> Int? {
    var k = next
    for _ in 0..<Self.capacity {
      k = k == 0 ? Self.capacity - 1 : k - 1
      if ids[k] >= 0 && names[k] == name { return ids[k] }
    }
    return nil
  }
}
