import Testing

@testable import OpsEngine

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
}
