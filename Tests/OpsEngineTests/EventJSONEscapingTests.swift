import Foundation
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The JSON line writer: names pass through whole, every control character is escaped (C1 and DEL
/// included, so a printed line cannot drive a terminal), and the result decodes to the same text.
@Suite struct EventJSONEscapingTests {
  private func line(_ name: String) -> String {
    Event(seq: 1, time: 0.5, kind: .didStart(operation: name)).jsonLine
  }

  @Test func plainAndWideNamesAreWrittenAsThey() {
    #expect(line("download") == #"{"seq":1,"time":0.5,"type":"didStart","operation":"download"}"#)
    #expect(line("漢字🙂") == #"{"seq":1,"time":0.5,"type":"didStart","operation":"漢字🙂"}"#)
  }

  @Test func controlsQuotesAndBackslashesAreEscaped() {
    let name = "a\"b\\c\nd\te\u{1B}[2J\u{7F}\u{9B}x\u{85}é"
    let text = line(name)
    #expect(
      text.hasSuffix(#""operation":"a\"b\\c\nd\te\u001b[2J\u007f\u009bx\u0085é"}"#), "\(text)")
    // No raw control byte of any kind is left in the line.
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    // And a JSON reader gets the original name back.
    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(object?["operation"] as? String == name)
  }

  @Test func appendingManyLinesMatchesTheLinesOneByOne() {
    let events = (1...50).map {
      Event(seq: $0, time: Double($0) / 8, kind: .didStart(operation: "op\($0)\u{9B}"))
    }
    var bytes: [UInt8] = []
    for event in events {
      event.appendJSONLine(to: &bytes)
      bytes.append(UInt8(ascii: "\n"))
    }
    #expect(String(decoding: bytes, as: UTF8.self) == events.map { $0.jsonLine + "\n" }.joined())
  }
}
