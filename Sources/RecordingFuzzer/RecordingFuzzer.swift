import Foundation
import FuzzHarness
import OpsBoard
import OpsCells
import OpsEngine
import OpsEvents
import OpsExport

/// The recording reader under libFuzzer: every input must be read or refused with a message, and
/// what it accepts must go through everything a recording reaches (every export, the board played
/// event by event, time travel, rendering) without a crash, a hang or a trap. Built by `.ci/fuzz`
/// with `-sanitize=fuzzer -D FUZZING`, where `main` hands over to libFuzzer's driver; in an
/// ordinary build this is a replayer of the files given (the seed corpus in Fuzz/recordings, or
/// crash reproducers). `RecordingFuzzCorpusTests` does the same with the seeds in every test run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(bytes: data, count: size)
  guard let recording = try? RecordingReader.parse(bytes, name: "fuzz.jsonl") else { return 0 }
  let source = ExportSource(
    id: recording.scenario ?? "fuzz", title: recording.title ?? "", lesson: recording.notes ?? "",
    recorded: recording.events)
  for format in ExportFormat.allCases { _ = try? format.renderBytes(source) }
  if let last = recording.events.last {
    let cut = ExportSource(
      id: "fuzz", title: "", lesson: "", recorded: recording.events, until: last.time / 2)
    _ = try? ExportFormat.svg.renderBytes(cut)
  }
  // The board, as `replay` shows it: step to the end, look now and then, travel back.
  let events = recording.events
  let board = BoardSession(
    title: recording.title ?? "fuzz", notes: recording.notes ?? "", paused: true,
    makeSource: { RecordingSource(events: events) })
  for i in 0..<min(events.count, 5_000) {
    _ = board.handle(.character("."))
    if i % 64 == 0 { _ = board.render(width: 100, height: 30, ascii: false) }
  }
  _ = board.render(width: 100, height: 30, ascii: false)
  for key: KeyInput in [.left, .left, .character("w"), .character("n"), .tab, .right] {
    _ = board.handle(key)
    _ = board.render(width: 80, height: 24, ascii: true)
  }
  return 0
}

@main
enum Fuzz {
  static func main() {
    FuzzHarness.main(tool: "RecordingFuzzer", verb: "reads") { data, size in
      guard let data else { return 0 }
      return fuzzRecording(data, size)
    }
  }
}
