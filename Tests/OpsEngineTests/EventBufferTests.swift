import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `EventBuffer`: the live runtime's events between their step and their delivery.
@Suite struct EventBufferTests {
  private func event(_ seq: Int) -> Event {
    // A heap-allocated name (longer than a small string), so a lost or doubled event would show.
    Event(seq: seq, time: Double(seq), kind: .didStart(operation: "operation-number-\(seq)"))
  }

  @Test func eventsLeaveInOrderAndTheRoomStays() {
    let buffer = EventBuffer(roomAfterGrowth: 5_000)
    var seen: [Int] = []
    for round in 0..<3 {
      // Past the small sizes (64, doubling to 1,024), then straight to the room, then beyond it.
      let n = [100, 3_000, 12_000][round]
      for i in 0..<n { buffer.append(event(i)) }
      #expect(buffer.count == n)
      seen.removeAll()
      buffer.drain { e, _ in
        guard case .didStart(let name) = e.kind, name == "operation-number-\(e.seq)" else { return }
        seen.append(e.seq)
      }
      #expect(seen == Array(0..<n))
      #expect(buffer.isEmpty)
    }
    // 64 → … → 1,024, then the room (5,000), then doubled past it (10,000 → 20,000).
    #expect(buffer.capacity == 20_000)
  }

  /// Each event leaves with the hint it came with, through growth and an exchange of buffers; one
  /// too large for the buffer's 32 bits reads as none.
  @Test func hintsTravelWithTheirEvents() {
    let buffer = EventBuffer(roomAfterGrowth: 5_000)
    let other = EventBuffer(roomAfterGrowth: 5_000)
    func hint(_ i: Int) -> Int { i % 7 == 0 ? -1 : i % 11 == 0 ? Int(Int32.max) + i : i * 3 }
    for i in 0..<6_000 { buffer.append(event(i), hint: hint(i)) }
    other.swapContents(with: buffer)
    #expect(buffer.isEmpty)
    var pairs: [(Int, Int)] = []
    other.drain { e, h in pairs.append((e.seq, h)) }
    #expect(pairs.map(\.0) == Array(0..<6_000))
    let expected = (0..<6_000).map { i in hint(i) > Int(Int32.max) ? -1 : hint(i) }
    #expect(pairs.map(\.1) == expected)
    // Without a hint, none.
    other.append(event(0))
    other.drain { _, h in #expect(h == -1) }
  }

  @Test func theGrowthPastTheSmallSizesGoesStraightToTheRoom() {
    let buffer = EventBuffer(roomAfterGrowth: 5_000)
    for i in 0..<1_024 { buffer.append(event(i)) }
    #expect(buffer.capacity == 1_024)
    buffer.append(event(1_024))
    #expect(buffer.capacity == 5_000)
  }
}
