import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `IDList`: two ids inline, the rest in an array, read as one list in order.
@Suite struct IDListTests {
  @Test func readsBackWhatWasAppendedInOrderAcrossTheInlinePart() {
    for n in 0..<6 {
      var list = IDList()
      list.reserveCapacity(n)
      let ids = (0..<n).map { 100 + $0 * 7 }
      for id in ids { list.append(id) }
      #expect(Array(list) == ids)
      #expect(list.count == n)
      #expect(list.isEmpty == (n == 0))
      if let last = ids.last { #expect(list.contains(last)) }
      #expect(!list.contains(99))
    }
  }

  @Test func listsAreEqualWhenTheirIdsAre() {
    var a = IDList()
    var b = IDList()
    for id in [3, 1, 4, 1, 5] {
      a.append(id)
      b.append(id)
    }
    #expect(a == b)
    b.append(9)
    #expect(a != b)
    #expect(a.description == "[3, 1, 4, 1, 5]")
  }
}
