import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsExport

/// Recordings come from files anyone can write: each kind of bad input gets a message that says what
/// is wrong and where, never a crash.
@Suite struct HostileRecordingTests {
  private let event =
    #"{"seq":1,"time":0,"type":"queueAdded","queue":"q","maxConcurrent":null,"suspended":false,"qos":"default"}"#

  private func message(_ text: String) -> String? {
    do {
      _ = try RecordingReader.parse(Data(text.utf8), name: "r.jsonl")
      return nil
    } catch let error as RecordingError {
      return error.description
    } catch {
      return "unexpected \(error)"
    }
  }

  @Test func aGoodLineIsRead() throws {
    #expect(message(event + "\n") == nil)
  }

  @Test func aFutureVersionNamesBothVersions() {
    let m = message(#"{"format":"opsview-recording","version":99}"# + "\n" + event)
    #expect(m?.contains("version 99") == true)
    #expect(m?.contains("version \(EventFormat.version)") == true)
  }

  @Test func anOlderVersionIsRefusedNamingBoth() {
    let m = message(#"{"format":"opsview-recording","version":1}"# + "\n" + event)
    #expect(m?.contains("version 1") == true)
    #expect(m?.contains("reads version \(EventFormat.version)") == true)
  }

  @Test func aHugeLineIsRefusedBeforeParsing() {
    let huge = String(repeating: "x", count: RecordingReader.maxLineBytes + 1)
    #expect(message(event + "\n" + huge)?.hasPrefix("r.jsonl:2: a line of") == true)
  }

  @Test func controlCharactersInNamesAreRefused() {
    let escaped = #"{"seq":1,"time":0,"type":"queueResumed","queue":"\u001b[2Jq"}"#
    #expect(message(escaped)?.contains("control character (U+001B)") == true)
    let newline = #"{"seq":1,"time":0,"type":"queueResumed","queue":"a\nb"}"#
    #expect(message(newline)?.contains("control character") == true)
    #expect(message("{\"seq\":1,\u{7}}")?.contains("control character (byte 7)") == true)
    // An escaped backslash is not an escape.
    let backslash =
      #"{"seq":1,"time":0,"type":"queueAdded","queue":"a\\nb","suspended":false,"qos":"default"}"#
    #expect(message(backslash) == nil)
  }

  @Test func anUnknownTypeIsNamedByLine() {
    let m = message(event + "\n" + #"{"seq":2,"time":0,"type":"teleported"}"#)
    #expect(m?.hasPrefix("r.jsonl:2: not an event of the trace format") == true)
  }

  @Test func binaryGarbageIsRefused() {
    let bytes = Data((0..<200).map { UInt8(($0 * 37) % 256) })
    #expect(throws: RecordingError.self) { try RecordingReader.parse(bytes, name: "g") }
  }

  /// Lines are decoded in parallel batches: the problem reported is still the first in the file,
  /// with its own line number, whichever kind it is.
  @Test func theFirstProblemInTheFileIsReportedAcrossBatches() {
    var lines = [event]
    for i in 2...10_000 {
      lines.append(
        #"{"seq":\#(i),"time":\#(i),"type":"queue\#(i % 2 == 0 ? "Suspended" : "Resumed")","queue":"q"}"#
      )
    }
    #expect(message(lines.joined(separator: "\n")) == nil)
    var broken = lines
    broken[5999] = broken[5999].replacingOccurrences(of: #""queue":"q""#, with: #""queue":"r""#)
    broken[6999] = "not json"
    #expect(message(broken.joined(separator: "\n")) == "r.jsonl:6000: queue 'r' was never added")
    broken[4999] = #"{"seq":5000,"time":5000,"type":"teleported"}"#
    #expect(
      message(broken.joined(separator: "\n"))?.hasPrefix(
        "r.jsonl:5000: not an event of the trace format")
        == true)
  }
}
