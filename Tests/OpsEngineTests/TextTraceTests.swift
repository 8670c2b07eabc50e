import Testing

@testable import OpsEngine
@testable import OpsEvents

@Suite("TextTrace: aligned columns for a handout")
struct TextTraceTests {
  @Test func theSubjectColumnFitsAGroupsInnerQueue() {
    let text = TextTrace(names: ["library", "importAlbum", "fetchList"], groups: ["importAlbum"])
    let events = [
      Event(
        seq: 7, time: 0,
        kind: .queueAdded(
          queue: "importAlbum.children", maxConcurrent: nil, suspended: false, qos: .default)),
      Event(seq: 8, time: 0, kind: .didStart(operation: "fetchList")),
    ]
    let lines = events.map(text.line) + [text.header]
    // The event text starts in the same column on every line.
    let columns =
      events.map { text.line($0).count - $0.kind.summary.count } + [text.header.count - 5]
    #expect(Set(columns).count == 1, "\(lines.joined(separator: "\n"))")
  }

  /// The byte writer the trace command uses must print exactly what `line` prints: long and short
  /// times, large sequence numbers, names wider than the column, and names that are not ASCII.
  @Test func appendLineWritesTheSameBytesAsLine() {
    let text = TextTrace(names: ["büro", "a"])
    let events = [
      Event(seq: 1, time: 0, kind: .didStart(operation: "a")),
      Event(
        seq: 2, time: 1.5,
        kind: .state(
          operation: "a", from: .ready, to: .executing,
          cause: .started(queue: "q", slot: 1, limit: 4, after: .slotFreed(by: "b")))),
      Event(seq: 42, time: 0.0005, kind: .didStart(operation: "büro")),
      Event(seq: 1_234_567, time: 12345.6789, kind: .didStart(operation: "日本語の名前")),
      Event(seq: 9, time: 2.1, kind: .didStart(operation: String(repeating: "x", count: 40))),
      Event(
        seq: 10, time: 1e7,
        kind: .warning(kind: "starved", subject: "a", message: "waited \u{1B}[2J long")),
    ]
    for event in events {
      var bytes: [UInt8] = [0x41]
      text.appendLine(event, to: &bytes)
      #expect(String(decoding: bytes.dropFirst(), as: UTF8.self) == text.line(event))
    }
  }
}
