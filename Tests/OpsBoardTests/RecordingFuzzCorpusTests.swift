import Foundation
import OpsCells
import OpsEngine
import OpsEvents
import OpsExport
import OpsTestSupport
import Testing

@testable import OpsBoard

/// The recording fuzzer's seed corpus (Fuzz/recordings) in every ordinary test run, as
/// Sources/RecordingFuzzer does with each input: read or refused with a message; what is read goes
/// through every export and the board, played event by event, without a crash. The seeds named
/// `valid-` are real runs and must be read; the others are the hostile streams and must be
/// refused.
@Suite struct RecordingFuzzCorpusTests {
  static let corpus = SeedCorpus("Fuzz/recordings")
  static var seeds: [String] { corpus.seeds }

  @Test func thereIsASmallSeedCorpus() throws {
    #expect(Self.seeds.count >= 10)
    #expect(try Self.corpus.oversized().isEmpty)
  }

  @Test(arguments: RecordingFuzzCorpusTests.seeds)
  func seedIsReadOrRefusedAndWhatIsReadPlays(_ name: String) throws {
    let data = try Self.corpus.data(name)
    let recording: Recording
    do {
      recording = try RecordingReader.parse(data, name: name)
    } catch let error as RecordingError {
      #expect(!name.hasPrefix("valid-"), "\(error)")
      #expect(error.description.hasPrefix(name), "\(error)")
      return
    }
    #expect(name.hasPrefix("valid-"), "\(name) was read")
    let source = ExportSource(
      id: "seed", title: recording.title ?? "", lesson: recording.notes ?? "",
      recorded: recording.events)
    for format in ExportFormat.allCases { _ = try format.renderBytes(source) }
    let events = recording.events
    let board = BoardSession(
      title: "seed", notes: "", paused: true, makeSource: { RecordingSource(events: events) })
    for _ in events { _ = board.handle(.character(".")) }
    let screen = board.render(width: 100, height: 30, ascii: false).text
    #expect(screen.contains("recording"))
    for key: KeyInput in [.left, .left, .character("w"), .tab, .right] { _ = board.handle(key) }
    _ = board.render(width: 80, height: 24, ascii: true)
  }
}
