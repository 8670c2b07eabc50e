/// The operations the last events were about, by name and slot: events come in runs about one
/// operation (its state, then its observers), and the engine passes the same string each time, so
/// comparing it is cheaper than hashing it. Two, because on the live runtime the runs of the
/// operation being added and of the one finishing interleave (one remembered would miss half of
/// the lookups). Every entry is also in the projection's name index.
struct RecentSlots: Sendable {
  private var recent = (name: "", slot: -1)
  private var older = (name: "", slot: -1)

  /// The slot of `name` if it is one of the two.
  func slot(of name: String) -> Int? {
    if recent.slot >= 0, name == recent.name { return recent.slot }
    if older.slot >= 0, name == older.name { return older.slot }
    return nil
  }

  /// `slot(of:)`, making a hit the most recent.
  mutating func touch(_ name: String) -> Int? {
    if recent.slot >= 0, name == recent.name { return recent.slot }
    guard older.slot >= 0, name == older.name else { return nil }
    swap(&recent, &older)
    return recent.slot
  }

  mutating func remember(_ name: String, at slot: Int) {
    older = recent
    recent = (name, slot)
  }

  /// The operation at `slot` is no longer known by name.
  mutating func forget(slot: Int) {
    if recent.slot == slot { recent = ("", -1) }
    if older.slot == slot { older = ("", -1) }
  }
}
