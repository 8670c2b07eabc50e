import OpsEvents

/// Rows by name for an owner that retires what the rows hold (a projection's records; the
/// engine's operations have `OperationNameIndex`). A retired row's name is not removed at once:
/// removing a key from Swift's open-addressing dictionary hashes the name and rehashes the keys
/// after it (~1,100 instructions a name, measured under the live runtime's lock). It stays, stale,
/// and a new row of that name may claim it; the stale names are swept out together once there are
/// more than `sweepAfter` of them and `timesLive` times as many as live ones, so each retirement
/// pays a share of one rehash. The owner knows which rows are retired and says so through
/// `isRetired`.
struct StaleNameIndex<Name: Hashable> {
  private var rows: [Name: Int] = [:]
  /// Names in `rows` whose row is retired.
  private(set) var staleCount = 0
  private let sweepAfter: Int
  private let timesLive: Int
  /// The live names during a sweep, kept between sweeps: a new table each time freed the old one
  /// (~800 KB with 10,000 operations kept; 30 times in 1M operations) and grew the new one back, and
  /// each large block freed makes glibc raise its mmap and trim thresholds, after which the threads'
  /// arenas keep more of what they free.
  private var scratch: [(Name, Int)] = []

  init(sweepAfter: Int, timesLive: Int) {
    precondition(
      sweepAfter >= 0 && timesLive >= 1, "a sweep needs stale names to outnumber live ones")
    self.sweepAfter = sweepAfter
    self.timesLive = timesLive
  }

  /// Names whose row is not retired.
  var liveCount: Int { rows.count - staleCount }

  /// The row named `name`, stale or not: the caller checks what it holds.
  func entry(_ name: Name) -> Int? { rows[name] }

  /// The row named `name` if it is not retired.
  func row(of name: Name, isRetired: (Int) -> Bool) -> Int? {
    guard let i = rows[name] else { return nil }
    return staleCount == 0 || !isRetired(i) ? i : nil
  }

  /// Names `row` `name` if no row has that name yet (one hash of the name), and returns nil.
  /// Otherwise changes nothing and returns the row that has it: if the owner has retired that one,
  /// it may `reclaim` the name.
  mutating func claim(_ name: Name, for row: Int) -> Int? {
    var holder: Int?
    Self.take(&rows[name, default: -1], row, &holder)
    return holder
  }

  private static func take(_ entry: inout Int, _ row: Int, _ holder: inout Int?) {
    if entry == -1 { entry = row } else { holder = entry }
  }

  /// Gives `row` the stale name of a retired one (see `claim`).
  mutating func reclaim(_ name: Name, for row: Int) {
    precondition(staleCount > 0 && rows[name] != nil, "'\(name)' is not a stale name")
    rows[name] = row
    staleCount -= 1
  }

  /// Counts one more retired row whose name is still here. True when the stale names are now
  /// to be swept (`sweep`).
  mutating func noteRetired() -> Bool {
    staleCount += 1
    return staleCount > sweepAfter && staleCount > timesLive * liveCount
  }

  /// Removes every stale name, refilling the table in place.
  mutating func sweep(isRetired: (Int) -> Bool) {
    scratch.removeAll(keepingCapacity: true)
    for (name, i) in rows where !isRetired(i) { scratch.append((name, i)) }
    rows.removeAll(keepingCapacity: true)
    for (name, i) in scratch { rows[name] = i }
    scratch.removeAll(keepingCapacity: true)
    staleCount = 0
  }
}

extension StaleNameIndex: Sendable where Name: Sendable {}
