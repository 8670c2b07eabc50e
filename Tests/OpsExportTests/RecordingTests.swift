import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsExport

@Suite struct RecordingTests {
  private func jsonl(_ name: String) throws -> String {
    let scenario = try #require(Catalog.named(name))
    let runtime = scenario.makeRuntime()
    runtime.run()
    return runtime.events.map(\.jsonLine).joined(separator: "\n") + "\n"
  }

  @Test func aRecordingExportsLikeItsRun() throws {
    let header = #"{"format":"opsview-recording","version":2,"scenario":"tour","title":"Tour"}"#
    let recording = try RecordingReader.parse(
      Data((header + "\n" + jsonl("tour")).utf8), name: "tour.jsonl")
    #expect(recording.scenario == "tour" && recording.title == "Tour")
    let replayed = ExportSource(id: "tour", title: "Tour", lesson: "", recorded: recording.events)
    var ran = try exportSource("tour")
    ran.title = "Tour"
    ran.lesson = ""
    #expect(replayed.projection == ran.projection)
    for format in ExportFormat.allCases {
      #expect(try format.render(replayed) == format.render(ran), "\(format)")
    }
  }

  @Test func untilCutsARecording() throws {
    let recording = try RecordingReader.parse(Data(jsonl("tour").utf8), name: "t.jsonl")
    let cut = ExportSource(id: "t", title: "", lesson: "", recorded: recording.events, until: 5)
    #expect(cut.events.allSatisfy { $0.time <= 5 })
    #expect(cut.end == 5)
    #expect(cut.projection.operation(named: "download")?.state == .finished)
    #expect(cut.projection.operation(named: "decode")?.state == .executing)
  }

  @Test func aMalformedLineIsNamedByNumber() throws {
    var lines = try jsonl("dependencies").split(separator: "\n").map(String.init)
    lines[2] = #"{"seq":3,"time":0,"type":"state"}"#
    do {
      _ = try RecordingReader.parse(Data(lines.joined(separator: "\n").utf8), name: "bad.jsonl")
      Issue.record("a malformed recording was accepted")
    } catch let error as RecordingError {
      #expect(error.description.hasPrefix("bad.jsonl:3: not an event of the trace format"))
    }
    #expect(throws: RecordingError.self) {
      try RecordingReader.parse(Data("{\"seq\":1,\n".utf8), name: "cut.jsonl")
    }
    #expect(throws: RecordingError.self) {
      try RecordingReader.parse(Data("\n\n".utf8), name: "empty.jsonl")
    }
  }

  @Test func anUnreadableFileSaysWhy() throws {
    do {
      _ = try RecordingReader.read(path: "/nonexistent/rec.jsonl")
      Issue.record("read a file that does not exist")
    } catch let error as RecordingError {
      #expect(error.description.contains("/nonexistent/rec.jsonl: cannot read the recording"))
    }
  }
}
