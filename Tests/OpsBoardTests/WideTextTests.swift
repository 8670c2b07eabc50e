import OpsCells
import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// Text with wide characters takes two cells per character on the board, as on the terminal.
@Suite struct WideTextTests {
  private func row(_ canvas: Canvas) -> [Character] {
    (0..<canvas.width).map { canvas.grid[$0, 0].character }
  }
  private let c = CellWidth.continuation

  @Test func wideCharactersTakeTwoCells() {
    var canvas = Canvas(width: 8, height: 1, ascii: false)
    #expect(canvas.put("下载a", x: 0, y: 0) == 5)
    #expect(row(canvas) == ["下", c, "载", c, "a", " ", " ", " "])
    #expect(CellWidth.columns("🙂") == 2)
    #expect(CellWidth.columns("\u{2764}\u{FE0F}") == 2)
    #expect(CellWidth.columns("é") == 1)
    #expect(CellWidth.columns("▶") == 1)
  }

  @Test func aCutNeverSplitsAWideCharacter() {
    var canvas = Canvas(width: 8, height: 1, ascii: false)
    #expect(canvas.put("下载中文", x: 0, y: 0, width: 4) == 4)
    #expect(row(canvas).prefix(4) == ["下", c, "…", " "])
    var plain = Canvas(width: 8, height: 1, ascii: false)
    #expect(plain.put("abcdefgh", x: 0, y: 0, width: 4) == 4)
    #expect(row(plain).prefix(4) == ["a", "b", "c", "…"])
  }

  @Test func rightAlignedWideTextEndsAtItsEdge() {
    var canvas = Canvas(width: 6, height: 1, ascii: false)
    canvas.putRight("下载", maxX: 6, y: 0)
    #expect(row(canvas) == [" ", " ", "下", c, "载", c])
  }
}

/// The width the layouts reserve for a text is the width the canvas draws it in.
@Suite struct TextWidthTests {
  @Test func aTextsWidthIsTheCellsItIsDrawnIn() {
    for text in ["download", "下载a", "🙂ok", "é-x", "\u{2764}\u{FE0F}!", ""] {
      var canvas = Canvas(width: 40, height: 1, ascii: false)
      #expect(CellWidth.columns(of: text) == canvas.put(text, x: 0, y: 0), "\(text)")
    }
    #expect(CellWidth.columns(of: "abcdef", upTo: 4) == 4)
    #expect(CellWidth.columns(of: "下载中文", upTo: 3) == 3)
    #expect(CellWidth.columns(of: "下载中文", upTo: 9) == 8)
    #expect(
      CellWidth.columns(of: "abc", upTo: 0) == 0 && CellWidth.columns(of: "下载", upTo: -3) == 0)
  }

  @Test func theGraphDrawsAnEdgeAfterAWideName() {
    let s = BoardSession(title: "wide", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q"))
      try! rt.addOperations([
        OperationSpec(name: "下载", work: WorkScript(duration: 1)),
        OperationSpec(name: "b", dependencies: ["下载"], work: WorkScript(duration: 1)),
      ])
      for name in ["下载", "b"] { try! rt.enqueue(name, on: "q") }
      return rt
    }
    s.advance(by: 0.5)
    _ = s.handle(.character("g"))
    let screen = screenText(s, 80, 24)
    let row = screen.split(separator: "\n").first { $0.contains("载") }
    #expect(row?.contains("下\u{200B}载\u{200B} ◄") == true, "\(row ?? "no row")")
  }
}
