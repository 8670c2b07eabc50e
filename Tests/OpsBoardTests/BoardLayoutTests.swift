import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardLayoutFit: the why line, the columns, help and the arrows")
struct BoardLayoutFitTests {
  @Test(arguments: [(80, 24), (120, 40), (200, 60)])
  func theWhyLineWrapsInsteadOfCuttingTheCause(width: Int, height: Int) {
    let s = builtInSession("deadlock")
    s.advance(by: 1)
    s.select(operation: "parse")
    let why = try! #require(s.model.whyWaiting("parse"))
    let lines = screenLines(s, width, height)
    let start = try! #require(lines.firstIndex { $0.contains("why parse:") })
    // The main column (left of the side pane) holds the whole text over a few rows.
    let mainWidth = BoardLayout.mainWidth(screenWidth: width)
    let text = lines[start..<min(start + 4, lines.count)]
      .map { String($0.prefix(mainWidth)) }
      .prefix { !$0.hasPrefix("─") }
      .map { $0.trimmingCharacters(in: " │") }
      .joined(separator: " ")
    #expect(
      text.split(separator: " ").joined(separator: " ").contains(
        why.split(separator: " ").joined(separator: " ")), "\(text)\n--- wanted: \(why)")
    #expect(!text.contains("…"))
    #expect(why.count > 70, "a short why proves nothing: \(why)")
  }

  @Test func columnsFollowWhatTheScenarioNeeds() {
    let s = builtInSession("priorities")
    s.advance(by: 1)
    let header = screenLines(s, 120, 40).first { $0.contains("operation") && $0.contains("state") }!
    #expect(header.contains("priority"), "\(header)")
    // Names and queues are never cut while there is room.
    let tour = builtInSession("tour")
    tour.advance(by: 3)
    let text = screenText(tour, 120, 40)
    #expect(!text.contains("netwo…"), "\(text)")
    #expect(text.contains("fetchComments"))
  }

  @Test func helpFitsWithoutScrollingAt120x40() {
    let s = photoSession()
    press(s, .character("?"))
    let text = screenText(s, 120, 40)
    #expect(!text.contains("more"), "\(text)")
    #expect(text.contains("Time travel"))
    #expect(text.contains("States (one colour each"))
  }

  @Test func arrowsPointAtWhatIsWaitedForEverywhere() {
    let s = builtInSession("deadlock")
    s.advance(by: 1)
    s.select(operation: "report")
    // The side pane: report waits for parse.
    #expect(screenText(s, 120, 40).contains("parse ◄"))
    // The why text says the same with → ("parse → validate": parse waits for validate).
    #expect(s.model.whyWaiting("parse")?.contains("parse → validate") == true)
    press(s, .character("g"))
    let graph = screenText(s, 120, 40)
    #expect(graph.contains("◄"))
    #expect(!graph.contains("►"))
    press(s, .escape, .character("?"))
    #expect(screenText(s, 200, 60).contains("a ◄── b means b waits for a"))
  }

  @Test func theStateMachineMarksThePathTaken() {
    let s = photoSession()
    s.advance(by: 5)
    s.select(operation: "download")  // pending → ready (no conditions) → executing → … → finished
    let grid = s.render(width: 120, height: 40, ascii: false)
    let text = grid.text
    // The shortcut it took is heavy; the trunk through evaluatingConditions it skipped is not.
    #expect(text.contains("○ pending ━"), "\(text)")
    #expect(text.contains("◎ ready ◄━"))
    let ascii = s.render(width: 120, height: 40, ascii: true).text
    #expect(ascii.contains("o pending ="), "\(ascii)")
  }

  @Test func theTimelineMarksAreInItsLegend() {
    let s = photoSession()
    s.advance(by: 9)
    s.select(operation: "decode")
    press(s, .character("t"))
    let text = screenText(s)
    #expect(text.contains("d download"))
    #expect(text.contains("d decode waits for it"), "\(text)")
    #expect(text.contains("w it waits for decode"))
  }
}
