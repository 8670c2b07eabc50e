import OpsEngine
import OpsEvents
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

@Suite("Presenter: operations and the state machine large, for a projector")
struct PresenterViewTests {
  @Test func thePresenterLayoutFitsAt80x24AndEscLeavesIt() {
    let s = builtInSession("tour")
    s.advance(by: 4.5)
    s.select(operation: "decode")
    s.present()
    #expect(s.view == .presenter)
    let text = screenText(s, 80, 24)
    #expect(text.contains("State machine · decode"))
    #expect(text.contains("why decode"))
    #expect(!text.contains("─ Log"))
    #expect(!text.contains("─ Queues"))
    #expect(text.split(separator: "\n").count == 24)
    assertSnapshot(of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "80x24")
    press(s, .escape)
    #expect(s.view == .board)
  }
}

@Suite("Presenter: its key, the last key in words, and the high-contrast theme")
struct PresenterKeyTests {
  @Test func pOpensItAndTheLastKeyIsSaidInTheEnginesWords() {
    let s = builtInSession("tour")
    s.advance(by: 1)
    press(s, .character("P"))
    #expect(s.view == .presenter)
    s.select(queue: "network")
    let running = s.model.operations.filter { $0.queue == "network" && $0.state == .executing }
    #expect(!running.isEmpty)
    press(s, .character("s"))
    let effect = try! #require(s.lastKeyEffect)
    #expect(effect.hasPrefix("s — network suspended: nothing new starts"), "\(effect)")
    #expect(effect.hasSuffix("download and prefetch keep running"), "\(effect)")
    #expect(running.map(\.name) == ["download", "prefetch"])
    let text = screenText(s, 80, 24)
    #expect(text.contains(" s  network suspended: nothing new starts"), "\(text)")
    #expect(text.split(separator: "\n").count == 24)
    assertSnapshot(
      of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "suspended-80x24")
    // A command's consequences come from the engine's events: resuming starts what waited.
    s.advance(by: 2)
    press(s, .character("s"))
    let resumed = try! #require(s.lastKeyEffect)
    #expect(resumed.hasPrefix("s — network resumed"), "\(resumed)")
    press(s, .character("P"))
    #expect(s.view == .board)
  }
}

@Suite("High-contrast theme: nothing dim, no grey, colours bold")
struct HighContrastThemeTests {
  @Test func theHighContrastPresenterAt80x24() {
    let s = builtInSession("tour")
    s.advance(by: 4.5)
    s.select(operation: "decode")
    s.present()
    let standard = s.render(width: 80, height: 24, ascii: false)
    s.theme = .highContrast
    let grid = s.render(width: 80, height: 24, ascii: false)
    // The same text: only colours and weight change.
    #expect(grid.text == standard.text)
    #expect(standard.cells.contains { $0.attributes.contains(.dim) })
    #expect(!grid.cells.contains { $0.attributes.contains(.dim) })
    #expect(!grid.cells.contains { $0.foreground == .gray })
    // Each state keeps its own colour: executing stays blue, only brighter.
    #expect(grid.cells.contains { $0.foreground == .blue && $0.attributes.contains(.bold) })
    #expect(grid.cells.allSatisfy { $0.foreground == .default || $0.attributes.contains(.bold) })
    assertSnapshot(of: grid, as: .styled, named: "high-contrast-80x24")
  }
}

@Suite("Presenter and teaching moments")
struct PresenterMomentTests {
  @Test func aMomentReachedInThePresenterKeepsItAndContinuingReturnsToIt() {
    let s = momentSession(Catalog.named("tour")!, paused: false)
    s.present()
    for _ in 0..<100 where s.currentMoment == nil { s.advance(by: 0.25) }
    #expect(s.currentMoment?.index == 0)
    let text = screenText(s, 80, 24)
    #expect(text.contains("Moment 1 of 4"), "\(text)")
    #expect(text.contains("State machine ·"), "\(text)")
    #expect(!text.contains("─ Log"))
    assertSnapshot(
      of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "moment-80x24")
    press(s, .character("m"))
    #expect(s.view == .presenter)
    for _ in 0..<100 where s.currentMoment == nil { s.advance(by: 0.25) }
    press(s, .escape)
    #expect(s.view == .presenter)
  }

  @Test func theStateMachineStaysWithALastKeyLineAndATwoLineWhyAt80x24() {
    let s = momentSession(Catalog.named("lifecycle")!, paused: true)
    s.present()
    press(s, .character("m"))  // plays on to moment 1: report pending on a suspended queue
    for _ in 0..<100 where s.currentMoment == nil { s.advance(by: 0.25) }
    press(s, .escape)
    #expect(s.view == .presenter)
    let text = screenText(s, 80, 24)
    #expect(text.contains("State machine · report"), "\(text)")
    #expect(text.contains(" m  playing on"), "the last key line: \(text)")
  }

  @Test func aQuizAtAMomentInThePresenterStaysInThePresenter() {
    let s = momentSession(Catalog.named("lifecycle")!, paused: true)
    s.present()
    s.setQuiz(true)
    press(s, .character("m"))
    for _ in 0..<100 where s.currentMoment == nil { s.advance(by: 0.25) }
    press(s, .character("m"))  // asks before playing on
    #expect(s.quizQuestion != nil)
    #expect(screenText(s, 80, 24).contains("State machine · report"))
    press(s, .enter)  // the reveal reaches moment 2
    #expect(screenText(s, 80, 24).contains("State machine · report"))
    press(s, .enter)  // closes the reveal: moment 2's caption, over the presenter
    #expect(s.currentMoment?.index == 1)
    let text = screenText(s, 80, 24)
    #expect(text.contains("State machine · report"), "\(text)")
    #expect(!text.contains("─ Log"), "\(text)")
  }
}

/// w, g, l or n then Esc come back to the presenter, not to the board.
@Suite("Presenter: the views opened from it return to it")
struct PresenterReturnTests {
  @Test(arguments: ["w", "g", "l", "n", "t"])
  func escFromAViewOpenedInThePresenterReturnsToIt(_ key: String) {
    let s = builtInSession("tour")
    s.advance(by: 4.5)
    s.present()
    press(s, .character(Character(key)))
    #expect(s.view != .presenter, "\(key): \(s.status?.text ?? "")")
    press(s, .escape)
    #expect(s.view == .presenter, "\(key)")
    #expect(screenText(s, 80, 24).contains("State machine"))
    // Its key again closes it the same way; from one view to another, Esc still comes back.
    press(s, .character(Character(key)), .character(Character(key)))
    #expect(s.view == .presenter, "\(key) twice")
    press(s, .character(Character(key)), .character(key == "g" ? "l" : "g"), .escape)
    #expect(s.view == .presenter, "\(key) then another view")
    press(s, .escape)
    #expect(s.view == .board)
  }

  @Test func theDetailOfALogOpenedInThePresenterComesBackThroughTheLog() {
    let s = builtInSession("tour")
    s.advance(by: 4.5)
    s.present()
    press(s, .character("g"), .enter)
    #expect(s.view == .detail)
    press(s, .escape)
    #expect(s.view == .graph)
    press(s, .escape)
    #expect(s.view == .presenter)
  }

  @Test func aMomentOverThePresenterReturnsThroughTheViewsOpenedFromIt() throws {
    let s = momentSession(try #require(Catalog.named("tour")), paused: true)
    s.present()
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 0)
    for key in ["w", "g", "l", "n"] {
      press(s, .character(Character(key)))
      press(s, .escape)
      #expect(s.view == .moment, "\(key)")
      let text = screenText(s, 80, 24)
      #expect(text.contains("Moment 1 of 4") && text.contains("State machine"), "\(key): \(text)")
    }
    press(s, .escape)
    #expect(s.view == .presenter)
  }

  @Test func aMomentReachedWhileTheLogOpenedInThePresenterIsShownGoesOverThePresenter() throws {
    let s = momentSession(try #require(Catalog.named("tour")), paused: true)
    s.present()
    press(s, .character("l"), .character(" "))
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 0)
    #expect(screenText(s, 80, 24).contains("State machine"))
    press(s, .escape)
    #expect(s.view == .presenter)
  }
}

@Suite("Presenter: the last key's effect and the why text wrap, never cut, at 80×24")
struct PresenterWrapTests {
  @Test func aLongEffectWrapsUnderItselfAndTheStateMachineStays() {
    let s = builtInSession("tour")
    s.advance(by: 6.5)
    s.present()
    s.select(operation: "upload")
    s.select(queue: "network")
    press(s, .character("s"), .character("s"))
    let effect = try! #require(s.lastKeyEffect)
    #expect(effect.hasSuffix("fetchAvatar and fetchComments keep running"), "\(effect)")
    let text = screenText(s, 80, 24)
    let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(
      joined.contains(effect.replacingOccurrences(of: "s — ", with: "s ")),
      "the whole effect: \(effect)\n\(text)")
    #expect(text.contains("why upload"), "\(text)")
    #expect(text.contains("◎ ready"), "the state machine: \(text)")
    assertSnapshot(of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "80x24")
  }
}

@Suite("Presenter: what a rehearsal showed")
struct PresenterRehearsalTests {
  /// r then y starts again in the presenter layout, as the room was looking at it.
  @Test func aRestartKeepsThePresenterLayout() throws {
    let s = momentSession(try #require(Catalog.named("tour")), paused: true)
    s.present()
    s.advance(by: 2)
    press(s, .character("r"), .character("y"))
    #expect(s.model.now == 0)
    #expect(s.isPresenting)
  }

  /// The quiz's box (at most 100 wide) over the presenter at 120 columns: beside it, nothing of
  /// the lines it covers shows through.
  @Test func nothingShowsThroughBesideTheQuizBox() throws {
    let s = momentSession(try #require(Catalog.named("deadlock")), paused: true)
    s.setQuiz(true)
    s.present()
    for _ in 0..<200 where s.quizQuestion == nil {
      if s.currentMoment != nil { press(s, .character("m")) } else { s.advance(by: 0.25) }
    }
    #expect(s.quizQuestion != nil)
    let lines = screenLines(s, 120, 40)
    let boxRows = lines.indices.filter { lines[$0].hasPrefix("┌─ Predict") }
    let top = try #require(boxRows.first)
    let bottom = try #require(lines.indices.first { $0 > top && lines[$0].hasPrefix("└") })
    for row in top...bottom {
      let beside = lines[row].dropFirst(100)
      #expect(beside.allSatisfy { $0 == " " }, "row \(row): \(lines[row])")
    }
  }
}
