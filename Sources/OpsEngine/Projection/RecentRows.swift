import OpsEvents

/// The operations the last events were about, by name and row: events come in runs about one
/// operation (its state, then its observers), and the engine passes the same string each time, so
/// comparing it is cheaper than hashing it. Two, because on the live runtime the runs of the
/// operation being added and of the one finishing interleave (one remembered missed half of the
/// lookups). Every entry is also in the projection's name index.
struct RecentRows: Sendable {
  private var recent = (name: "", row: -1)
  private var older = (name: "", row: -1)

  /// The row of `name` if it is one of the two.
  func row(of name: String) -> Int? {
    if recent.row >= 0, name == recent.name { return recent.row }
    if older.row >= 0, name == older.name { return older.row }
    return nil
  }

  /// `row(of:)`, making a hit the most recent.
  mutating func touch(_ name: String) -> Int? {
    if recent.row >= 0, name == recent.name { return recent.row }
    guard older.row >= 0, name == older.name else { return nil }
    swap(&recent, &older)
    return recent.row
  }

  mutating func remember(_ name: String, at row: Int) {
    older = recent
    recent = (name, row)
  }

  /// The operation at `row` is no longer known by name.
  mutating func forget(row: Int) {
    if recent.row == row { recent = ("", -1) }
    if older.row == row { older = ("", -1) }
  }
}
