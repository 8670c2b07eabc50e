/// Slots by name for an owner that retires what the slots hold (a projection's records; the
/// engine's operations have `OperationNameIndex`). A retired slot's name is not removed at once:
/// removing a key from Swift's open-addressing dictionary hashes the name and rehashes the keys
/// after it, on every retirement. It stays, stale, and a new slot of that name may claim it; the
/// stale names are swept out together once there are more than `sweepAfter` of them and `timesLive`
/// times as many as live ones, so each retirement pays a share of one rehash. The owner knows which
/// slots are retired and says so through `isRetired`.
struct StaleNameIndex<Name: Hashable> {
  private var slots: [Name: Int] = [:]
  /// Names in `slots` whose slot is retired.
  private(set) var staleCount = 0
  private let sweepAfter: Int
  private let timesLive: Int
  /// The live names during a sweep, kept between sweeps: a new table each time would free the old
  /// one and grow the new one back, and each large block freed makes glibc raise its mmap and trim
  /// thresholds, after which the threads' arenas keep more of what they free.
  private var scratch: [(Name, Int)] = []

  init(sweepAfter: Int, timesLive: Int) {
    precondition(
      sweepAfter >= 0 && timesLive >= 1, "a sweep needs stale names to outnumber live ones")
    self.sweepAfter = sweepAfter
    self.timesLive = timesLive
  }

  /// Names whose slot is not retired.
  var liveCount: Int { slots.count - staleCount }

  /// The slot named `name`, stale or not: the caller checks what it holds.
  func entry(_ name: Name) -> Int? { slots[name] }

  /// The slot named `name` if it is not retired.
  func slot(of name: Name, isRetired: (Int) -> Bool) -> Int? {
    guard let i = slots[name] else { return nil }
    return staleCount == 0 || !isRetired(i) ? i : nil
  }

  /// Names `slot` `name` if no slot has that name yet (one hash of the name), and returns nil.
  /// Otherwise changes nothing and returns the slot that has it: if the owner has retired that one,
  /// it may `reclaim` the name.
  mutating func claim(_ name: Name, for slot: Int) -> Int? {
    var holder: Int?
    Self.take(&slots[name, default: -1], slot, &holder)
    return holder
  }

  private static func take(_ entry: inout Int, _ slot: Int, _ holder: inout Int?) {
    if entry == -1 { entry = slot } else { holder = entry }
  }

  /// Gives `slot` the stale name of a retired one (see `claim`).
  mutating func reclaim(_ name: Name, for slot: Int) {
    precondition(staleCount > 0 && slots[name] != nil, "'\(name)' is not a stale name")
    slots[name] = slot
    staleCount -= 1
  }

  /// Counts one more retired slot whose name is still here. True when the stale names are now
  /// to be swept (`sweep`).
  mutating func noteRetired() -> Bool {
    staleCount += 1
    return staleCount > sweepAfter && staleCount > timesLive * liveCount
  }

  /// Removes every stale name, refilling the table in place.
  mutating func sweep(isRetired: (Int) -> Bool) {
    scratch.removeAll(keepingCapacity: true)
    for (name, i) in slots where !isRetired(i) { scratch.append((name, i)) }
    slots.removeAll(keepingCapacity: true)
    for (name, i) in scratch { slots[name] = i }
    scratch.removeAll(keepingCapacity: true)
    staleCount = 0
  }
}

extension StaleNameIndex: Sendable where Name: Sendable {}
