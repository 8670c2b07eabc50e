import OpsEngine
import OpsEvents
import SnapshotTesting
import Testing

@testable import OpsBoard

/// Golden whole screens, text and styles. Record new ones with `SNAPSHOT_TESTING_RECORD=missing` (the
/// default records what is missing and fails once); every recorded file was read by a person.
private func assertScreen(
  _ s: BoardSession, _ width: Int, _ height: Int, ascii: Bool = false, named name: String,
  fileID: StaticString = #fileID, file: StaticString = #filePath, testName: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let grid = s.render(width: width, height: height, ascii: ascii)
  assertSnapshot(
    of: grid, as: .styled, named: name, fileID: fileID, file: file, testName: testName,
    line: line,
    column: column)
}

@Suite("BoardSnapshots: whole screens at three sizes, every view and overlay")
struct BoardSnapshotTests {
  @Test(arguments: [(80, 24), (120, 40), (200, 60)])
  func boardOverTime(width: Int, height: Int) {
    // 2s: rateApp waits for the Alert lock held by banner.
    assertScreen(photo(at: 2, selecting: "rateApp"), width, height, named: "t2-\(width)x\(height)")
    // 7s: the network queue is suspended by the scenario; resize and thumbnail run after decode.
    assertScreen(photo(at: 7, selecting: "resize"), width, height, named: "t7-\(width)x\(height)")
    // 13.5s: upload evaluates its loggedIn condition after login finished.
    assertScreen(
      photo(at: 13.5, selecting: "upload"), width, height, named: "t13.5-\(width)x\(height)")
  }

  @Test func asciiFallback() {
    let s = photo(at: 7, selecting: "resize")
    assertScreen(s, 80, 24, ascii: true, named: "80x24")
    assertScreen(s, 120, 40, ascii: true, named: "120x40")
    #expect(s.render(width: 120, height: 40, ascii: true).cells.allSatisfy { $0.character.isASCII })
    _ = s.handle(.character("g"))
    assertScreen(s, 80, 24, ascii: true, named: "graph-80x24")
    #expect(s.render(width: 80, height: 24, ascii: true).cells.allSatisfy { $0.character.isASCII })
  }

  @Test func detailView() {
    let s = photo(at: 13.5, selecting: "upload")
    _ = s.handle(.enter)
    assertScreen(s, 80, 24, named: "80x24")
    assertScreen(s, 120, 40, named: "120x40")
    _ = s.handle(.pageDown)
    assertScreen(s, 80, 24, named: "80x24-scrolled")
    let failed = photo(at: 3, selecting: "analytics")
    _ = failed.handle(.enter)
    assertScreen(failed, 120, 40, named: "failed-120x40")
  }

  @Test func graphView() {
    let s = photo(at: 7, selecting: "upload")
    _ = s.handle(.character("g"))
    assertScreen(s, 80, 24, named: "80x24")
    assertScreen(s, 120, 40, named: "120x40")
  }

  @Test func graphOfADeadlock() throws {
    let s = BoardSession(title: "Deadlock", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q"))
      try! rt.addOperations([
        OperationSpec(name: "start"),
        OperationSpec(name: "save", dependencies: ["start", "load"]),
        OperationSpec(name: "load", dependencies: ["save"]),
        OperationSpec(name: "report", dependencies: ["load"]),
      ])
      for o in ["start", "save", "load", "report"] { try! rt.enqueue(o, on: "q") }
      return rt
    }
    s.advance(by: 2)
    _ = s.handle(.character("g"))
    assertScreen(s, 80, 24, named: "80x24")
    let dag = s.graphLayout!
    // save waits for start, load for save, report for load; load → save closes the cycle.
    #expect(dag.layers.map { $0.compactMap { dag.nodes[$0].op } } == [[0], [1], [2], [3]])
    #expect(dag.cycleEdges == 1)
  }

  @Test func logView() {
    let s = photo(at: 7, selecting: "download")
    _ = s.handle(.character("l"))
    assertScreen(s, 120, 40, named: "120x40")
    for _ in 0..<5 { _ = s.handle(.up) }
    assertScreen(s, 80, 24, named: "80x24-scrolled")
  }

  @Test func notesView() {
    let s = photoSession()
    _ = s.handle(.character("n"))
    assertScreen(s, 80, 24, named: "80x24")
  }

  @Test func helpOverlay() {
    let s = photo(at: 2, selecting: "download")
    _ = s.handle(.character("?"))
    assertScreen(s, 80, 24, named: "80x24")
    assertScreen(s, 120, 40, named: "120x40")
    assertScreen(s, 200, 60, named: "200x60")
    for _ in 0..<30 { _ = s.handle(.down) }
    assertScreen(s, 80, 24, named: "80x24-end")
  }

  @Test func filterAndStatusLine() {
    let s = photo(at: 5, selecting: "download")
    for k in "/exe" { _ = s.handle(.character(k)) }
    assertScreen(s, 80, 24, named: "typing-80x24")
    _ = s.handle(.enter)
    _ = s.handle(.escape)
    _ = s.handle(.home)
    _ = s.handle(.character("c"))
    #expect(s.selectedOperation == "download")
    assertScreen(s, 80, 24, named: "too-late-80x24")
  }

  @Test func tooSmall() {
    let s = photo(at: 2, selecting: "download")
    assertScreen(s, 59, 16, named: "59x16")
    assertScreen(s, 60, 15, named: "60x15")
    assertScreen(s, 24, 6, named: "24x6")
    assertScreen(s, 60, 16, named: "60x16-smallest")
    #expect(
      s.render(width: 59, height: 16, ascii: false).text.contains(
        "opsview needs at least 60×16 (now 59×16)"))
    #expect(BoardSession.minimumSize == (60, 16))
    #expect(s.render(width: 0, height: 0, ascii: false).cells.isEmpty)
    #expect(s.render(width: 1, height: 1, ascii: true).text == "o")
  }
}

@Suite("BoardStyle: colour is never the only carrier")
struct BoardStyleTests {
  @Test func everyStateHasItsOwnColourGlyphAndWord() {
    let states = OperationState.allCases
    #expect(Set(states.map { StateLook.color($0).rawValue }).count == states.count)
    #expect(Set(states.map { StateLook.glyph($0, ascii: false) }).count == states.count)
    #expect(Set(states.map { StateLook.glyph($0, ascii: true) }).count == states.count)
    #expect(states.allSatisfy { StateLook.glyph($0, ascii: true).isASCII })
  }

  @Test func selectedRowIsReversedAndStatesCarryAttributes() {
    let s = photo(at: 5, selecting: "decode")
    let grid = s.render(width: 80, height: 24, ascii: false)
    let layout = BoardLayout(width: 80, height: 24, queueCount: 3)
    let row = layout.operationRows.y + 3
    #expect((0..<80).allSatisfy { grid[$0, row].attributes.contains(.reverse) })
    // decode is executing: its glyph is blue and bold.
    let x = (0..<80).first { grid[$0, row].character == "●" }!
    #expect(grid[x, row].foreground == .blue && grid[x, row].attributes.contains(.bold))
    // The header is reversed, so it reads on a monochrome terminal too.
    #expect(grid[0, 0].attributes.contains(.reverse))
    // Golden screens record styles: the same text without the highlight is a different screen.
    var lost = grid
    for x in 0..<80 { lost[x, row].attributes.remove(.reverse) }
    #expect(lost.text == grid.text)
    #expect(lost.styledDump != grid.styledDump)
  }
}
