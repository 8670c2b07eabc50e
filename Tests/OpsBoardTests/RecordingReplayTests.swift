import Foundation
import OpsEngine
import OpsEvents
import OpsExport
import OpsScenarios
import Testing

@testable import OpsBoard

/// A recording replayed on the board shows what the original run showed, event by event, because
/// both boards fold the same events.
@Suite("Replay: a recording of a run shows the same board at every event")
struct RecordingReplayTests {
  /// `play tour` with a few key presses, written as `play --record` writes it.
  private func recordedTour() throws -> (original: BoardSession, recording: Data) {
    let s = builtInSession("tour", paused: false)
    var lines = [
      RecordingHeader(opsview: "test", scenario: "tour", title: s.title, source: nil).jsonLine
    ]
    s.observePresent { change in
      if case .event(let e) = change { lines.append(e.jsonLine) }
    }
    s.advance(by: 1)
    press(s, .character("s"))  // suspend network
    s.advance(by: 1.5)
    press(s, .character("s"))  // resume it
    press(s, .down, .character("c"))  // cancel the second operation
    s.advance(by: 0.5)
    press(s, .tab, .character("-"))
    while !s.isOver { s.advance(by: 1) }
    return (s, Data((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// The screen at event `k` below the header (whose title gives way to the source label), without
  /// the status message of the last key.
  private func screen(_ s: BoardSession, atEvent k: Int) -> [Substring] {
    s.seek(toEvent: k)
    s.ui.status = nil
    return Array(screenLines(s, 100, 30).dropFirst())
  }

  @Test func everyEventShowsTheSameBoard() throws {
    let (original, data) = try recordedTour()
    let recording = try RecordingReader.parse(data, name: "tour.jsonl")
    #expect(recording.events.count == original.log.count)
    #expect(recording.events.contains { if case .command = $0.kind { true } else { false } })
    let past = BoardSession(
      title: original.title, notes: original.notes, speed: original.speed, paused: false,
      makeSource: { RecordingSource(events: recording.events) })
    #expect(screenText(past, 100, 30).contains("recording: "))
    while !past.isOver { past.advance(by: 0.7) }
    #expect(past.log.map(\.event) == original.log.map(\.event))
    #expect(past.model == original.model)
    press(original, .character(" "))
    press(past, .character(" "))
    for k in 0...original.log.count {
      #expect(screen(past, atEvent: k) == screen(original, atEvent: k), "at event \(k)")
    }
  }

  @Test func aRecordingTakesNoCommands() throws {
    let (_, data) = try recordedTour()
    let events = try RecordingReader.parse(data, name: "t").events
    let past = BoardSession(
      title: "t", notes: "", paused: true, makeSource: { RecordingSource(events: events) })
    let before = past.log.count
    press(past, .character("s"))
    #expect(past.status?.text.contains("a recording cannot be steered") == true)
    #expect(past.log.count == before)
  }

  @Test func steppingAndTimeTravelWorkOverARecording() throws {
    let (original, data) = try recordedTour()
    let events = try RecordingReader.parse(data, name: "t").events
    let past = BoardSession(
      title: "t", notes: "", paused: true, makeSource: { RecordingSource(events: events) })
    let start = past.log.count
    press(past, .character("."))
    #expect(past.log.count == start + 1)
    while !past.isOver { past.advance(by: 5) }
    press(past, .left, .left)
    #expect(past.position == original.log.count - 2)
    #expect(
      past.model == original.history.model(afterEvents: original.log.count - 2, log: original.log)
    )
  }
}
