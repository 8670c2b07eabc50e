import OpsEvents

/// Which of the first 64 lints (by index) the publisher calls after one type of event or one
/// transition, as bits of a word: reading an array of indices from the publisher's tables retained
/// and released it at every event. Lints beyond 64 (only a caller's own set could have so many)
/// are listed apart (see `EventPublisher`).
struct LintSet: Sendable {
  private var bits: UInt64 = 0

  /// The indices below 64 of `indices`.
  init(_ indices: [Int]) {
    for i in indices where i >= 0 && i < 64 { bits |= 1 << UInt64(i) }
  }

  var isEmpty: Bool { bits == 0 }

  /// The indices in increasing order.
  func makeIterator() -> Iterator { Iterator(rest: bits) }

  struct Iterator {
    var rest: UInt64

    mutating func next() -> Int? {
      guard rest != 0 else { return nil }
      defer { rest &= rest - 1 }
      return rest.trailingZeroBitCount
    }
  }
}
