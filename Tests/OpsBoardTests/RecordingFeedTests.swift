import Foundation
import OpsEngine
import OpsEvents
import OpsExport
import Testing

@testable import OpsBoard

/// A long recording is shown as it is read: a board over a `RecordingFeed` that has only its first
/// events renders them, says the reading goes on, and shows the rest once it comes.
@Suite struct RecordingFeedTests {
  /// The events of a finished run of the tour, as a recording holds them.
  static func run() -> [Event] {
    let s = builtInSession("tour", paused: false)
    var events: [Event] = []
    s.observePresent { change in
      if case .event(let e) = change { events.append(e) }
    }
    while !s.isOver { s.advance(by: 1) }
    return events
  }

  @Test func aBoardOverTheFirstEventsRendersWhileTheReadingGoesOn() throws {
    let events = Self.run()
    try #require(events.count > 20)
    let firstOperation = events.compactMap { e -> String? in
      if case .operationAdded(let o, _, _, _, _, _, _, _, _) = e.kind { o } else { nil }
    }.first!
    let feed = RecordingFeed()
    let cut = events.firstIndex { $0.time > 0 } ?? 10
    feed.add(Array(events[..<cut]))
    feed.read(bytes: 1_000, of: 10_000)
    let board = BoardSession(
      title: "big", notes: "", paused: false, makeSource: { RecordingSource(feed: feed) })
    var text = screenText(board, 120, 30)
    #expect(text.contains("reading… 10%"), "\(text)")
    #expect(text.contains(firstOperation), "\(text)")
    // Playing on waits where the events read end: the run is not over, nothing is invented.
    board.advance(by: 100)
    #expect(!board.isOver)
    #expect(board.log.count == cut)
    feed.add(Array(events[cut...]))
    feed.finish()
    while !board.isOver { board.advance(by: 1) }
    #expect(board.log.map(\.event) == events)
    text = screenText(board, 120, 30)
    #expect(!text.contains("reading…"), "\(text)")
  }

  @Test func aFailedReadingIsTheSourcesFailure() {
    let feed = RecordingFeed()
    feed.finish(failure: "big.jsonl:7: not an event")
    let source = RecordingSource(feed: feed)
    #expect(source.failure == "big.jsonl:7: not an event")
    #expect(source.isIdle)
  }
}
