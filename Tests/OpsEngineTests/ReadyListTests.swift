import PropertyBased
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `ReadyList`: whatever order operations become ready in, they are taken in enqueue order.
@Suite struct ReadyListTests {
  @Test(arguments: [1, 2, 3, 4, 5])
  func takesInEnqueueOrderWhateverTheReadinessOrder(_ seed: Int) {
    var list = ReadyList()
    var reference: [Int] = []
    // Seeded, so a failure repeats (PropertyBased's xoshiro256**).
    var generator = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9_7F4A_7C15, 1, 2))
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
}
