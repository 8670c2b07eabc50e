import OpsCells
import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// A pane drawn alone into `area` of a `width`×`height` frame, from the session's context.
private struct Drawn {
  let frame: BoardRenderer
  var grid: CellGrid { frame.canvas.grid }
  var lines: [String] {
    grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
  /// Rows of the area, as text.
  func rows(of area: Rect) -> [String] {
    (area.y..<area.maxY).map { y in String((area.x..<area.maxX).map { grid[$0, y].character }) }
  }
  /// Cells outside the area that are not blank.
  func touchedOutside(_ area: Rect) -> [(x: Int, y: Int)] {
    var touched: [(x: Int, y: Int)] = []
    for y in 0..<grid.height {
      for x in 0..<grid.width where !area.contains(x: x, y: y) && grid[x, y] != .blank {
        touched.append((x, y))
      }
    }
    return touched
  }
}

private func draw<P: Pane>(
  _ pane: inout P, _ s: BoardSession, in area: Rect, width: Int? = nil, height: Int? = nil,
  ascii: Bool = false
) -> Drawn {
  var frame = BoardRenderer(
    context: s.renderContext(ascii: ascii), width: width ?? area.maxX, height: height ?? area.maxY)
  pane.render(area, &frame)
  return Drawn(frame: frame)
}

private func draw<P: Pane>(
  _ pane: P, _ s: BoardSession, in area: Rect, width: Int? = nil, height: Int? = nil,
  ascii: Bool = false
) -> Drawn {
  var pane = pane
  return draw(&pane, s, in: area, width: width, height: height, ascii: ascii)
}

@Suite("Panes: each pane drawn alone into a small rectangle, from a context")
struct PaneTests {
  @Test func queuesListEachQueueAndScrollToTheSelectedOne() {
    let s = photo(at: 2, selecting: "rateApp")
    #expect(s.model.queues.map(\.name) == ["network", "images", "ui"])
    var pane = QueuesPane(selectedQueue: 0, scroll: 0)
    let all = draw(&pane, s, in: Rect(x: 0, y: 0, width: 60, height: 4))
    #expect(all.lines[0].contains("Queues"))
    #expect(all.lines[1].hasPrefix("›network"))
    #expect(all.lines[2].hasPrefix(" images"))
    #expect(all.lines[3].hasPrefix(" ui"))
    #expect(all.frame.stats.queueRowsDrawn == 3)
    // Two rows for three queues: selecting the last scrolls it into view.
    var last = QueuesPane(selectedQueue: 2, scroll: 0)
    let scrolled = draw(&last, s, in: Rect(x: 0, y: 0, width: 60, height: 3))
    #expect(last.scroll == 1)
    #expect(scrolled.lines[1].hasPrefix(" images"))
    #expect(scrolled.lines[2].hasPrefix("›ui"))
  }

  /// Operations started after a suspension, asking again for their locks (X10), take slots without
  /// executing: the row counts them against the limit, and the status line names the deadlock.
  @Test func queuesCountSlotsHeldByOperationsAskingAgainForALock() {
    let s = BoardSession(title: "reclaim", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: 0))
      try! rt.addOperations([
        OperationSpec(name: "A", exclusivity: ["x"], work: WorkScript(duration: 0)),
        OperationSpec(name: "B", exclusivity: ["y"], work: WorkScript(duration: 0)),
        OperationSpec(name: "C", exclusivity: ["x", "y"], work: WorkScript(duration: 0)),
      ])
      for o in ["A", "B", "C"] { try! rt.enqueue(o, on: "q") }
      rt.schedule(.suspend(queue: "q"), at: 0)
      rt.schedule(.resume(queue: "q"), at: 1)
      rt.schedule(.setMaxConcurrent(queue: "q", value: 2), at: 1)
      return rt
    }
    s.advance(by: 2)
    var pane = QueuesPane(selectedQueue: 0, scroll: 0)
    let row = draw(&pane, s, in: Rect(x: 0, y: 0, width: 60, height: 2)).lines[1]
    #expect(row.contains("2/2"), "\(row)")
    let status = draw(StatusPane(), s, in: Rect(x: 0, y: 0, width: 200, height: 1)).lines[0]
    #expect(status.contains("3 deadlocked on q"), "\(status)")
  }

  @Test func operationsShowTheSelectedRowAndKeepItInView() {
    let s = photo(at: 2, selecting: "rateApp")
    let index = s.model.operations.firstIndex { $0.name == "rateApp" }!
    #expect(index >= 3, "the test needs rateApp below the first three rows")
    var pane = OperationsPane(selection: s.ui.shared, scroll: 0)
    let drawn = draw(&pane, s, in: Rect(x: 0, y: 0, width: 50, height: 5))
    #expect(drawn.lines[0].hasPrefix("─ Operations ─"))
    // A scroll mark says which rows of how many are shown.
    #expect(
      drawn.lines[0].contains(
        "\(pane.scroll + 1)–\(pane.scroll + 3) of \(s.model.operations.count)"))
    #expect(drawn.lines[1].contains("operation") && drawn.lines[1].contains("state"))
    #expect(drawn.frame.stats.operationRowsDrawn == 3)
    #expect(pane.scroll > 0)
    let selected = drawn.lines[2...].filter { $0.hasPrefix("›") }
    #expect(selected.count == 1)
    #expect(selected.first?.contains("rateApp") == true)
    #expect(drawn.grid[0, 2 + index - pane.scroll].attributes.contains(.reverse))
  }

  @Test func explanationSaysWhyTheSelectedOperationWaits() {
    let s = photo(at: 2, selecting: "rateApp")
    let lines = ExplanationPane.lines(s.ui.shared, in: s.model, width: 60)
    let drawn = draw(
      ExplanationPane(lines: lines), s, in: Rect(x: 0, y: 0, width: 60, height: lines.count))
    #expect(drawn.lines[0].hasPrefix(" why rateApp: "))
    let text = drawn.lines.joined(separator: " ")
    #expect(text.contains("Alert") && text.contains("banner"))
    #expect(lines.count <= BoardLayout.maximumExplanationRows)
  }

  @Test func logShowsTheNewestEventsNewestLast() {
    let s = photo(at: 2, selecting: "rateApp")
    let drawn = draw(LogPane(), s, in: Rect(x: 0, y: 0, width: 70, height: 4))
    #expect(drawn.lines[0].hasPrefix("─ Log ─"))
    let newest = s.model.newestTellingLog(3)
    #expect(drawn.frame.stats.logLinesDrawn == newest.count)
    #expect(drawn.lines[3].contains(newest.last!.subject))
    #expect(drawn.lines[3].contains(clockText(newest.last!.time)))
  }

  @Test func sidePaneShowsTheSelectedOperationsDependenciesAndStateMachine() {
    let s = photo(at: 7, selecting: "resize")
    let drawn = draw(
      SidePane(selection: s.ui.shared), s, in: Rect(x: 0, y: 0, width: 50, height: 36))
    let text = drawn.lines.joined(separator: "\n")
    #expect(drawn.lines[0].contains("resize"))
    #expect(text.contains("Dependencies"))
    #expect(text.contains("decode"))
    #expect(text.contains("State machine"))
    // Nothing selected: it says so.
    let nothing = draw(
      SidePane(selection: SharedState()),
      BoardSession(title: "empty", notes: "", paused: true) {
        VirtualRuntime()
      }, in: Rect(x: 0, y: 0, width: 50, height: 4))
    #expect(nothing.lines[1].contains("none: the list is empty"))
  }

  @Test func stateMachineMarksTheCurrentStateAndTheFlags() {
    let s = photo(at: 7, selecting: "resize")
    let op = s.model.operation(named: "resize")!
    #expect(op.state == .executing)
    let area = Rect(x: 0, y: 0, width: 80, height: StateMachineDiagram.height)
    let drawn = draw(StateMachinePane(operation: op), s, in: area)
    let row = StateMachineDiagram.rows[.executing]!
    #expect(drawn.lines[row].contains("executing"))
    #expect(drawn.grid[3, row].attributes.contains(.reverse))
    #expect(!drawn.grid[3, StateMachineDiagram.rows[.finished]!].attributes.contains(.reverse))
    #expect(drawn.lines.joined().contains("isExecuting=true"))
  }

  @Test func headerNamesTheBoardAndWhatPlaybackIsDoing() {
    let s = photo(at: 2, selecting: "rateApp")
    let drawn = draw(HeaderPane(), s, in: Rect(x: 0, y: 0, width: 80, height: 1))
    #expect(drawn.lines[0].hasPrefix(" opsview │ "))
    #expect(drawn.lines[0].contains("‖ paused"))
    #expect(drawn.lines[0].contains("t \(clockText(s.model.now))s"))
  }

  @Test func statusSaysTheQuestionOrTheMessage() {
    let s = photo(at: 2, selecting: "rateApp")
    let area = Rect(x: 0, y: 0, width: 50, height: 1)
    let refused = draw(StatusPane(status: StatusMessage("no queue", .rejected)), s, in: area)
    #expect(refused.lines[0].hasPrefix(" ✗ no queue"))
    let asking = draw(
      StatusPane(confirmation: Confirmation(question: "restart?", effect: .restart)), s, in: area)
    #expect(asking.lines[0].hasPrefix(" restart? y/n"))
    // Paused with nothing to say: the story so far, or how to play.
    let hint = draw(StatusPane(), s, in: area)
    #expect(!hint.lines[0].trimmingCharacters(in: .whitespaces).isEmpty)
  }

  @Test func footerListsTheKeysThatWorkNow() {
    let s = photo(at: 2, selecting: "rateApp")
    let area = Rect(x: 0, y: 0, width: 80, height: 1)
    let confirming = draw(FooterPane(confirming: true), s, in: area)
    #expect(confirming.lines[0].hasPrefix(" y yes  n (or any other key) no"))
    let typing = draw(
      FooterPane(input: TextInput(purpose: .filter, text: "dec")), s, in: area)
    #expect(typing.lines[0].hasPrefix(" / dec▏"))
    #expect(typing.lines[0].contains("Enter keeps the filter · Esc clears it"))
    let board = draw(FooterPane(view: .board), s, in: area)
    // Paused: Space says it plays; help and quit are pinned at the right.
    #expect(board.lines[0].contains("Space play"))
    #expect(board.lines[0].trimmingCharacters(in: .whitespaces).hasSuffix("q quit"))
  }

  @Test func momentCaptionShowsItsNumberTheCaptionAndItsClaims() {
    let s = photo(at: 2, selecting: "rateApp")
    var moment = MomentView()
    moment.index = 1
    moment.count = 4
    moment.time = 2
    moment.caption = "rateApp waits: `banner` holds the Alert lock."
    let lines = MomentCaptionPane.lines(moment, width: 36)
    let facts = MomentCaptionPane.facts(
      moment, in: s.model, width: 36, compact: false, ascii: false)
    #expect(facts.isEmpty)
    let box = Rect(x: 0, y: 0, width: 40, height: lines.count + 2)
    let drawn = draw(MomentCaptionPane(moment: moment, lines: lines, facts: facts), s, in: box)
    #expect(drawn.lines[0].contains("Moment 2 of 4 · \(clockText(2))s"))
    #expect(drawn.lines[0].contains("m continues"))
    let body = drawn.lines[1...].joined(separator: " ").split { " │".contains($0) }.joined(
      separator: " ")
    #expect(body.contains("rateApp waits: banner holds the Alert lock."))
    #expect(!body.contains("`"))
  }

  @Test func detailShowsTheSelectedOperationWithItsStateMachine() {
    let s = photo(at: 7, selecting: "resize")
    var pane = DetailPane(selection: s.ui.shared, scroll: DocumentScroll())
    let drawn = draw(&pane, s, in: Rect(x: 0, y: 0, width: 60, height: 20))
    #expect(drawn.lines[0].contains("Operation resize"))
    #expect(drawn.lines[19].contains("↓ more"))
  }

  @Test func loadErrorAndTooSmallSayWhatIsWrong() {
    let s = photo(at: 2, selecting: "rateApp")
    let error = draw(
      LoadErrorPane(problem: "line 3: unknown key 'qeue'"), s,
      in: Rect(x: 0, y: 0, width: 60, height: 10))
    #expect(error.lines[6].contains("The scenario file does not load"))
    #expect(error.lines[7].contains("line 3: unknown key 'qeue'"))
    let small = draw(
      TooSmallPane(waiting: .character("x")), s, in: Rect(x: 0, y: 0, width: 30, height: 8))
    let text = small.lines.joined(separator: " ")
    #expect(text.contains("opsview needs at least"))
    #expect(text.contains("(now 30×8)"))
    #expect(text.contains("'x' did nothing"))
  }

  @Test func fullLogShowsTheNewestEventsAndRemembersItsRows() {
    let s = photo(at: 2, selecting: "rateApp")
    var pane = FullLogPane(view: LogView())
    let drawn = draw(&pane, s, in: Rect(x: 0, y: 0, width: 70, height: 6))
    #expect(drawn.lines[0].contains("Event log · \(s.log.count) events"))
    #expect(pane.view.visible == 5)
    #expect(drawn.frame.stats.logLinesDrawn == min(5, s.log.count))
    #expect(drawn.lines[5].contains(clockText(s.log.last!.time)))
  }

  @Test func notesAreWrappedAndSayWhenThereIsMore() {
    let s = builtInSession("tour")
    #expect(!s.notes.isEmpty)
    var pane = NotesPane(scroll: DocumentScroll())
    let drawn = draw(&pane, s, in: Rect(x: 0, y: 0, width: 60, height: 6))
    // The title is cut to the width, with an ellipsis.
    #expect(drawn.lines[0].contains("Notes · \(s.title.prefix(20))"))
    #expect(drawn.lines[5].contains("↓ more"))
    #expect(!drawn.lines.joined().contains("`"))
  }

  @Test func warningsListEachWarningOrSayThereAreNone() {
    let start = photo(at: 0, selecting: "download")
    #expect(start.model.warnings.isEmpty)
    let none = draw(
      WarningsPane(scroll: DocumentScroll()), start, in: Rect(x: 0, y: 0, width: 60, height: 4))
    #expect(none.lines[1].contains("no warnings: nothing has gone wrong so far"))
    let s = photoSession()
    s.advance(by: 40)
    let warnings = s.model.warnings
    #expect(!warnings.isEmpty, "the photo scenario has a failure and a timeout")
    let drawn = draw(
      WarningsPane(scroll: DocumentScroll()), s, in: Rect(x: 0, y: 0, width: 70, height: 8))
    #expect(drawn.lines[0].contains("Warnings · \(warnings.count)"))
    #expect(drawn.lines[1].contains(warnings[0].subject))
  }

  @Test func timelineFillsEachRowWithItsStatesAndKeepsTheSelectionInView() {
    let s = photo(at: 7, selecting: "resize")
    var pane = TimelinePane(selection: s.ui.shared, zoom: 0, scroll: 0)
    let drawn = draw(&pane, s, in: Rect(x: 0, y: 0, width: 70, height: 6))
    #expect(drawn.lines[0].contains("Timeline"))
    let selected = drawn.lines.filter { $0.hasPrefix("›") }
    #expect(selected.count == 1)
    #expect(selected.first?.contains("resize") == true)
    // resize is executing at 7 s: its row ends in the executing fill.
    #expect(selected.first?.contains("█") == true)
  }

  @Test func helpListsTheViewsKeysInABoxAndScrollsWhenItDoesNotFit() {
    let s = photo(at: 2, selecting: "rateApp")
    let area = Rect(x: 0, y: 0, width: 60, height: 14)
    var pane = HelpPane(overlay: HelpOverlay(), view: .board)
    let drawn = draw(&pane, s, in: area)
    // The box starts under the header row and ends above the status and footer rows.
    #expect(drawn.lines[0].trimmingCharacters(in: .whitespaces).isEmpty)
    #expect(drawn.lines[1].contains("Help · clock paused while it is open"))
    #expect(drawn.lines[2].contains(MainView.title))
    #expect(drawn.lines[12].trimmingCharacters(in: .whitespaces).isEmpty)
    // Nine rows for all the keys: it says there is more, and the scroll key moves it.
    #expect(drawn.lines[11].contains("↓ more (↑↓ scroll)"))
    #expect(pane.overlay.scroll.top == 0)
    let moved = pane.overlay.perform(.down, input: .down)
    #expect(moved)
    let scrolled = draw(&pane, s, in: area)
    #expect(pane.overlay.scroll.top == 1)
    #expect(scrolled.lines[2] != drawn.lines[2])
  }

  @Test func quizBoxAsksWithTheChosenAnswerMarkedThenRevealsWhatChanged() {
    let s = photo(at: 2, selecting: "rateApp")
    var view = QuizView()
    view.question = QuizQuestion(
      kind: .nextStart, prompt: "Which operation starts executing next?",
      choices: ["banner", "rateApp", "resize"], answer: 0, revealAt: 1,
      explanation: "banner holds the Alert lock.", focus: "banner")
    view.selection = 1
    view.score.asked = 1
    let body = Rect(x: 0, y: 0, width: 60, height: 14)
    let lines = QuizPane.lines(view, view.question!, in: body, ascii: false)
    let box = QuizPane.box(lines: lines.count, in: body)
    #expect(box == Rect(x: 0, y: 14 - 4 - 2, width: 60, height: 6))
    let asking = draw(QuizPane(phase: view.phase, score: view.score, lines: lines), s, in: box)
    #expect(asking.rows(of: box)[0].contains("Predict · score 0/1"))
    #expect(asking.rows(of: box)[0].contains("Enter answers"))
    #expect(asking.rows(of: box)[1].contains("Which operation starts executing next?"))
    #expect(asking.rows(of: box)[3].contains("▸ 2  rateApp"))
    #expect(asking.grid[2, box.y + 3].attributes.contains(.reverse))
    #expect(!asking.grid[2, box.y + 2].attributes.contains(.reverse))
    // Answered wrong: the verdict names the engine's answer, then why and what changed.
    view.phase = .revealed(picked: 1)
    view.changes = ["banner → executing"]
    let revealed = QuizPane.lines(view, view.question!, in: body, ascii: false)
    let revealBox = QuizPane.box(lines: revealed.count, in: body)
    let shown = draw(
      QuizPane(phase: view.phase, score: view.score, lines: revealed), s, in: revealBox)
    let text = shown.rows(of: revealBox).joined(separator: "\n")
    #expect(shown.rows(of: revealBox)[0].contains("Revealed · score 0/1"))
    #expect(text.contains("✗ You said rateApp; the engine: banner"))
    #expect(text.contains("banner holds the Alert lock."))
    #expect(text.contains("What changed:"))
    #expect(text.contains("banner → executing"))
    // More changes than the box shows: the heading says the list is the last of them.
    view.changes = (1...7).map { "change \($0)" }
    let many = QuizPane.lines(
      view, view.question!, in: Rect(x: 0, y: 0, width: 60, height: 40), ascii: false)
    #expect(many.contains { $0.0 == "What changed (the last 3 of 7):" })
    #expect(many.contains { $0.0 == "change 7" } && !many.contains { $0.0 == "change 4" })
  }

  @Test func graphKeepsTheSelectedOperationInViewAndDrawsOnlyVisibleNodes() {
    let s = photo(at: 7, selecting: "resize")
    let layout = DAGLayout(model: s.model)
    #expect(layout.layers.count > 1)
    let area = Rect(x: 0, y: 0, width: 24, height: 5)
    var pane = GraphPane(layout: layout, selection: s.ui.shared, scrollX: 0, scrollY: 0)
    let drawn = draw(&pane, s, in: area)
    #expect(drawn.lines[0].hasPrefix("─ Dependency graph · 1"))
    // Three rows between the title and the legend: the selected one among them, reversed.
    let row = drawn.lines[1...3].firstIndex { $0.contains("resize") }
    #expect(row != nil, "resize scrolled into view")
    if let row, let name = drawn.lines[row].range(of: "resize") {
      let x = drawn.lines[row].distance(from: drawn.lines[row].startIndex, to: name.lowerBound)
      #expect(drawn.grid[x, row].attributes.contains(.reverse))
    }
    let node = layout.nodes[
      layout.nodeOfOperation[s.model.operations.firstIndex { $0.name == "resize" }!]]
    #expect(pane.scrollY <= node.row && node.row < pane.scrollY + 3)
    #expect(pane.scrollX > 0 || layout.columnX[node.layer] < area.width)
    // Only the rows shown are drawn: at most one node a column a row.
    #expect(drawn.frame.stats.graphNodesDrawn > 0)
    #expect(drawn.frame.stats.graphNodesDrawn <= 3 * layout.layers.count)
  }

  /// Every pane drawn into a rectangle in the middle of a larger frame leaves the rest blank.
  @Test func everyPaneDrawsOnlyInsideItsRectangle() {
    let s = photo(at: 7, selecting: "resize")
    let area = Rect(x: 3, y: 2, width: 56, height: 22)
    var moment = MomentView()
    moment.count = 1
    moment.caption = "a caption"
    var panes: [(String, any Pane)] = [
      ("header", HeaderPane()), ("status", StatusPane()), ("footer", FooterPane()),
      ("queues", QueuesPane(selectedQueue: 1, scroll: 0)),
      ("operations", OperationsPane(selection: s.ui.shared, scroll: 0)),
      (
        "explanation",
        ExplanationPane(lines: ExplanationPane.lines(s.ui.shared, in: s.model, width: 56))
      ),
      ("log", LogPane()), ("side", SidePane(selection: s.ui.shared)),
      ("state machine", StateMachinePane(operation: s.model.operation(named: "resize"))),
      ("detail", DetailPane(selection: s.ui.shared, scroll: DocumentScroll())),
      ("moment", MomentCaptionPane(moment: moment, lines: ["a caption"], facts: [])),
      ("load error", LoadErrorPane(problem: "bad")),
      ("too small", TooSmallPane(waiting: nil)),
      ("full log", FullLogPane(view: LogView())), ("notes", NotesPane(scroll: DocumentScroll())),
      ("warnings", WarningsPane(scroll: DocumentScroll())),
      ("timeline", TimelinePane(selection: s.ui.shared, zoom: 0, scroll: 0)),
      ("help", HelpPane(overlay: HelpOverlay(), view: .board)),
      (
        "quiz",
        QuizPane(
          phase: .asking, score: QuizScore(),
          lines: [("Which starts next?", .bold), ("▸ 1  a", .plain)])
      ),
    ]
    panes.append(
      (
        "graph",
        GraphPane(layout: DAGLayout(model: s.model), selection: s.ui.shared, scrollX: 0, scrollY: 0)
      ))
    for (name, pane) in panes {
      var pane = pane
      let drawn = draw(&pane, s, in: area, width: 64, height: 28)
      #expect(drawn.touchedOutside(area).isEmpty, "\(name) drew outside its rectangle")
      #expect(
        !drawn.rows(of: area).joined().trimmingCharacters(in: .whitespaces).isEmpty,
        "\(name) drew nothing")
    }
  }
}
