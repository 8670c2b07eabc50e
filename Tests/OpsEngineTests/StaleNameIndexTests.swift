import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The projection's name index: retired slots keep their names until a sweep, lookups skip them,
/// and a new slot may take such a name again.
@Suite struct StaleNameIndexTests {
  /// Slots retired so far, standing in for the owner's records.
  private final class Owner {
    var retired = Set<Int>()
    func isRetired(_ i: Int) -> Bool { retired.contains(i) }
  }

  @Test func aTakenNameIsRefusedWithItsHolderAndAStaleOneIsReclaimed() {
    var index = StaleNameIndex<String>(sweepAfter: 100, timesLive: 1)
    let owner = Owner()
    let first = [index.claim("a", for: 0), index.claim("b", for: 1)]
    #expect(first == [nil, nil])
    // Refused: "a" is held by slot 0, and stays so.
    let refused = index.claim("a", for: 2)
    #expect(refused == 0)
    #expect(index.row(of: "a", isRetired: owner.isRetired) == 0)
    owner.retired.insert(0)
    let due = index.noteRetired()
    #expect(!due)
    #expect(index.row(of: "a", isRetired: owner.isRetired) == nil)
    #expect(index.entry("a") == 0 && index.staleCount == 1 && index.liveCount == 1)
    // The owner sees the holder is retired and takes the name again.
    let holder = index.claim("a", for: 2)
    #expect(holder == 0)
    index.reclaim("a", for: 2)
    #expect(index.row(of: "a", isRetired: owner.isRetired) == 2)
    #expect(index.staleCount == 0 && index.liveCount == 2)
  }

  /// A sweep is asked for only past both bounds, and removes exactly the retired slots' names.
  @Test(arguments: [(0, 1), (10, 1), (10, 4), (3, 2)])
  func sweepsComeOnlyPastBothBoundsAndKeepTheLiveNames(sweepAfter: Int, timesLive: Int) {
    var index = StaleNameIndex<String>(sweepAfter: sweepAfter, timesLive: timesLive)
    let owner = Owner()
    let total = 200
    for i in 0..<total {
      let holder = index.claim("op\(i)", for: i)
      #expect(holder == nil)
    }
    var sweeps = 0
    // Retire every other slot from the start, then the rest from the end, checking the policy at
    // each retirement.
    let order = Array(stride(from: 0, to: total, by: 2)) + stride(from: total - 1, to: 0, by: -2)
    for i in order {
      owner.retired.insert(i)
      let stale = index.staleCount + 1
      let live = total - owner.retired.count
      let due = index.noteRetired()
      #expect(due == (stale > sweepAfter && stale > timesLive * live))
      if due {
        index.sweep(isRetired: owner.isRetired)
        sweeps += 1
        #expect(index.staleCount == 0 && index.liveCount == live)
      }
      #expect(index.liveCount == live)
    }
    #expect(sweeps > 0)
    for i in 0..<total {
      let found = index.row(of: "op\(i)", isRetired: owner.isRetired)
      #expect(found == (owner.retired.contains(i) ? nil : i))
    }
  }
}
