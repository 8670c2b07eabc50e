import OpsCells
import Testing

@testable import OpsTerminal

/// Wide characters (CJK, emoji) are drawn with their real width over their two cells, instead of `?`.
@Suite struct WideGlyphTests {
  /// A wcwidth stand-in: controls -1, combining marks 0, CJK and emoji 2, the rest 1.
  private func columns(_ value: UInt32) -> Int {
    switch value {
    case 0..<0x20, 0x7F..<0xA0: -1
    case 0x300..<0x370, 0xFE00...0xFE0F, 0x200B...0x200D: 0
    case 0x4E00...0x9FFF, 0x1F300...0x1FAFF: 2
    default: 1
    }
  }

  @Test func aWideCharacterWithItsSecondCellIsDrawnWide() {
    #expect(Glyph.cell(for: "漢", cells: 2, columns: columns) == ([0x6F22], 2))
    #expect(Glyph.cell(for: "🙂", cells: 2, columns: columns) == ([0x1F642], 2))
    // An emoji sequence in two cells: its base, without the joiners.
    #expect(Glyph.cell(for: "🙂\u{200D}🙂", cells: 2, columns: columns) == ([0x1F642], 2))
  }

  @Test func withoutItsSecondCellItIsReplaced() {
    #expect(Glyph.cell(for: "漢", cells: 1, columns: columns) == ([Glyph.replacement], 1))
  }

  @Test func aCharacterTheTerminalDrawsNarrowInTwoCellsIsDrawnNarrow() {
    // The board gives ❤️ two cells; wcwidth says its base is narrow: drawn narrow, then a blank.
    #expect(Glyph.cell(for: "\u{2764}\u{FE0F}", cells: 2, columns: columns) == ([0x2764], 1))
  }

  @Test func changingEitherHalfRedrawsBoth() {
    var grid = CellGrid(width: 4, height: 1)
    grid[0, 0] = Cell("漢")
    grid[1, 0] = Cell(CellWidth.continuation)
    grid[2, 0] = Cell("a")
    #expect(Glyph.cellsToDraw([1], in: grid) == [0, 1])
    #expect(Glyph.cellsToDraw([0], in: grid) == [0, 1])
    #expect(Glyph.cellsToDraw([2], in: grid) == [2])
  }
}
