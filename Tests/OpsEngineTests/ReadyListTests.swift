import Testing

@testable import OpsEngine

/// `ReadyList`: whatever order operations become ready in, they are taken in enqueue order.
@Suite struct ReadyListTests {
  @Test(arguments: [1, 2, 3, 4, 5])
  func takesInEnqueueOrderWhateverTheReadinessOrder(_ seed: Int) {
    var list = ReadyList()
    var reference: [Int] = []
    var generator = SplitMix(seed: UInt64(seed))
    var next = 0
    // Mostly in order, some late (a dependent), taken in between as a queue's scheduling does.
    for _ in 0..<2_000 {
      let roll = Int(generator.next() % 10)
      if roll < 6 {
        next += 1
        list.insert(op: next * 10, order: next)
        reference.append(next)
      } else if roll < 8, next > 0 {
        let order = Int(generator.next() % UInt64(next)) + 1
        guard !reference.contains(order) else { continue }
        list.insert(op: order * 10, order: order)
        reference.append(order)
      } else {
        reference.sort()
        let expected = reference.isEmpty ? nil : reference.removeFirst() * 10
        #expect(list.popFirst() == expected)
      }
      #expect(list.count == reference.count && list.isEmpty == reference.isEmpty)
    }
    reference.sort()
    var taken: [Int] = []
    while let op = list.popFirst() { taken.append(op / 10) }
    #expect(taken == reference)
  }

  /// A small deterministic generator (the test must not depend on the system's random numbers).
  struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
