import OpsEvents

/// The engine's operation ids by name: an open-addressing table over each name's hash, computed
/// beforehand (`OperationRecord.nameHash`, outside the live runtime's lock), with linear probing
/// and deletion by backward shift.
///
/// It replaces a `StaleNameIndex<HashedName>` (a Swift dictionary whose retired names stayed until
/// a sweep rebuilt it). Under the live runtime's lock that cost ~460 instructions a claim (the
/// dictionary still runs SipHash over the stored hash) and ~550 an operation for the sweeps, each
/// sweep holding the lock for the whole rebuild (~22,000 names every ~11,000 retirements, with the
/// standard retention). Here a claim spreads the stored hash with one multiplication, and a retired
/// name is removed at once by shifting back the few entries after it in its run.
///
/// The table compares names only where the full hashes are equal; it asks the owner, which holds
/// the names, through `isNamed`.
struct OperationNameIndex {
  /// A name's hash and the id it names, side by side: a probe reads one cache line, not one in
  /// each of two arrays (with 10,000 operations kept the table is ~500 KB, and a probe lands
  /// anywhere in it).
  private struct Bucket {
    var hash: Int
    /// -1: empty.
    var id: Int
  }
  private var buckets: [Bucket]
  /// log2 of the bucket count.
  private var bits: Int
  private(set) var count = 0

  init() {
    bits = 4
    buckets = Array(repeating: Bucket(hash: 0, id: -1), count: 1 << bits)
  }

  private var mask: Int { (1 << bits) - 1 }

  /// The bucket a hash probes first: Fibonacci hashing, so the top bits of the product, which
  /// depend on every bit of the hash, pick it.
  private func home(_ hash: Int) -> Int {
    Int(truncatingIfNeeded: (UInt(bitPattern: hash) &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits))
  }

  /// Where the probe for the name whose hash is `hash` ends: the bucket of the id that has it, or
  /// the empty bucket ending its run. `isNamed(id)` says whether `id` has that name (asked only of
  /// ids whose name has the same hash). Inlined: called apart, it cost a claim ~65 instructions
  /// more under the live runtime's lock (callgrind), a retain and release of the closure's context
  /// among them.
  @inline(__always)
  private func find(_ hash: Int, _ isNamed: (Int) -> Bool) -> Int {
    var b = home(hash)
    while buckets[b].id >= 0 && !(buckets[b].hash == hash && isNamed(buckets[b].id)) {
      b = (b + 1) & mask
    }
    return b
  }

  /// The id of the name whose hash is `hash`, if any (`isNamed` as in `find`).
  func id(hash: Int, where isNamed: (Int) -> Bool) -> Int? {
    let b = find(hash, isNamed)
    return buckets[b].id >= 0 ? buckets[b].id : nil
  }

  /// Gives `id` the name whose hash is `hash` and returns nil, unless an id has that name already
  /// (`isNamed` as in `find`): then changes nothing and returns that one.
  mutating func claim(hash: Int, for id: Int, where isNamed: (Int) -> Bool) -> Int? {
    precondition(id >= 0, "an operation id is never negative")
    let b = find(hash, isNamed)
    if buckets[b].id >= 0 { return buckets[b].id }
    buckets[b] = Bucket(hash: hash, id: id)
    count += 1
    // At most half full: the runs a probe walks stay short.
    if count * 2 > buckets.count { grow() }
    return nil
  }

  /// Forgets the name of `id` (of hash `hash`), which must be in the table.
  mutating func remove(hash: Int, id: Int) {
    var hole = home(hash)
    while buckets[hole].id != id {
      precondition(buckets[hole].id >= 0, "operation \(id) is not in the name index")
      hole = (hole + 1) & mask
    }
    buckets[hole].id = -1
    count -= 1
    // Each entry after the hole in its run moves back into it unless its first bucket lies
    // after the hole (cyclically, up to the entry itself): every entry stays reachable from its
    // first bucket without a gap.
    var b = (hole + 1) & mask
    while buckets[b].id >= 0 {
      let first = home(buckets[b].hash)
      let stays = hole <= b ? (hole < first && first <= b) : (hole < first || first <= b)
      if !stays {
        buckets[hole] = buckets[b]
        buckets[b].id = -1
        hole = b
      }
      b = (b + 1) & mask
    }
  }

  private mutating func grow() {
    let old = buckets
    bits += 1
    buckets = Array(repeating: Bucket(hash: 0, id: -1), count: 1 << bits)
    for bucket in old where bucket.id >= 0 {
      var b = home(bucket.hash)
      while buckets[b].id >= 0 { b = (b + 1) & mask }
      buckets[b] = bucket
    }
  }
}
