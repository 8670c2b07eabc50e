import Foundation
import Testing

/// `opsview export` through the real binary: files written whole or not at all, and bad input
/// refused with a clear message and the promised exit code.
@Suite struct ExportCommandTests {
  private func scratch() throws -> URL {
    let dir = scratchDirectory.appendingPathComponent("export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  private func contents(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
  }

  @Test func writesEachFormatToAFileAndTheSameBytesToStdout() throws {
    let dir = try scratch()
    // Every format the command offers, read from its help, so a new one is tested without a list.
    let help = try opsview(["export", "--help"]).out.replacingOccurrences(of: "\n", with: " ")
    let values = try #require(help.range(of: #"values: [a-z, ]+"#, options: .regularExpression))
    let formats = help[values].dropFirst("values: ".count).split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(formats.contains("perfetto") && formats.contains("html"))
    for format in formats {
      let file = dir.appendingPathComponent("tour.\(format)").path
      let r = try opsview(["export", "tour", "--format", format, "-o", file])
      #expect(r.status == 0, "\(format): \(r.err)")
      #expect(r.out.isEmpty)
      let written = try String(contentsOfFile: file, encoding: .utf8)
      let stdout = try opsview(["export", "tour", "--format", format])
      #expect(stdout.out == written, "\(format) differs between -o and stdout")
    }
    #expect(contents(dir).count == formats.count)
  }

  @Test func anUnknownFormatIsAUsageError() throws {
    let r = try opsview(["export", "tour", "--format", "png"])
    #expect(r.status == 2)
    #expect(r.err.contains("png") && r.err.contains("format"))
    let misplaced = try opsview(["export", "tour", "--format", "dot", "--operation", "download"])
    #expect(misplaced.status == 2)
    #expect(misplaced.err.contains("--operation needs --format mermaid"))
  }

  @Test func anUnwritablePathLeavesNoFile() throws {
    let dir = try scratch()
    // The parent is a regular file: nothing can be created under it (root included).
    let blocker = dir.appendingPathComponent("blocker")
    try Data("x".utf8).write(to: blocker)
    let r = try opsview(["export", "tour", "--format", "svg", "-o", blocker.path + "/out.svg"])
    #expect(r.status == 1)
    #expect(r.err.contains("cannot write") && r.err.contains("out.svg"))
    #expect(contents(dir) == ["blocker"])
    let directory = try opsview(["export", "tour", "--format", "svg", "-o", dir.path])
    #expect(directory.status == 1)
    #expect(directory.err.contains("is a directory"))
    #expect(contents(dir) == ["blocker"])
  }

  @Test func aFailedExportLeavesTheOldFileAsItWas() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("path.mmd")
    try Data("old\n".utf8).write(to: file)
    let r = try opsview([
      "export", "tour", "--format", "mermaid", "--operation", "nope", "-o", file.path,
    ])
    #expect(r.status == 1)
    #expect(r.err.contains("no operation named 'nope'"))
    #expect(try String(contentsOf: file, encoding: .utf8) == "old\n")
    #expect(contents(dir) == ["path.mmd"])
  }

  @Test func aRecordingIsExportedAndAMalformedOneRefused() throws {
    let trace = try opsview(["trace", "tour", "--format", "jsonl"])
    let header = #"{"format":"opsview-recording","version":2,"scenario":"tour"}"#
    let good = try temporaryFile("tour-recording.jsonl", header + "\n" + trace.out)
    let fromRecording = try opsview(["export", good, "--format", "dot"])
    let fromScenario = try opsview(["export", "tour", "--format", "dot"])
    #expect(fromRecording.status == 0, "\(fromRecording.err)")
    #expect(fromRecording.out == fromScenario.out)

    var lines = trace.out.split(separator: "\n").map(String.init)
    lines[1] = "{\"seq\":2,\"time\":0,\"type\":"
    let bad = try temporaryFile("bad-recording.jsonl", lines.joined(separator: "\n"))
    let dir = try scratch()
    let out = dir.appendingPathComponent("bad.svg").path
    let r = try opsview(["export", bad, "--format", "svg", "-o", out])
    #expect(r.status == 1)
    #expect(r.err.contains("bad-recording.jsonl:2: not an event of the trace format"))
    #expect(contents(dir).isEmpty)
    let missing = try opsview(["export", "/nonexistent/rec.jsonl", "--format", "dot"])
    #expect(missing.status == 1)
    #expect(missing.err.contains("cannot read the recording"))
  }

  @Test func anUnknownScenarioIsAScenarioError() throws {
    let r = try opsview(["export", "no-such-scenario", "--format", "dot"])
    #expect(r.status == 1)
    #expect(r.err.contains("no built-in scenario named 'no-such-scenario'"))
  }

  /// A scenario's export keeps only the events the handout shows (the rest are counted): it must
  /// match, byte for byte, the export of the same run recorded with every event. `stress` has more
  /// events than the handout's trace table, so the count and the cut are both exercised.
  @Test func aScenarioExportsAsItsFullRecordingDoes() throws {
    let dir = try scratch()
    let trace = try opsview(["trace", "stress", "--format", "jsonl"])
    #expect(trace.status == 0)
    let header =
      #"{"format":"opsview-recording","opsview":"test","scenario":"stress","version":2}"#
    let recording = dir.appendingPathComponent("stress.jsonl")
    try Data((header + "\n" + trace.out).utf8).write(to: recording)
    // Not html: a scenario's page has its moments and quiz, a recording's page has only its events.
    for format in ["perfetto", "dot", "mermaid", "svg", "markdown"] {
      let fromScenario = try opsview(["export", "stress", "--format", format])
      let fromRecording = try opsview(["export", recording.path, "--format", format])
      #expect(fromScenario.status == 0 && fromRecording.status == 0, "\(format)")
      #expect(fromScenario.out == fromRecording.out, "\(format) differs from the recording's")
    }
    let page = try opsview(["export", "stress", "--format", "html"]).out
    let recordedPage = try opsview(["export", recording.path, "--format", "html"]).out
    let run = { (p: String) in p.components(separatedBy: #","moments":"#).first ?? "" }
    #expect(run(page) == run(recordedPage), "html: the recording's page has other events")
    let handout = try opsview(["export", "stress", "--format", "markdown"]).out
    let events = trace.out.split(separator: "\n").count
    #expect(events > 2_000)
    #expect(handout.contains("The first 2000 of \(events) events are shown"))
  }
}
