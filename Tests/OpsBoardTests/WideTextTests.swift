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
