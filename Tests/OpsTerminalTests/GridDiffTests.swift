import OpsCells
import OpsTerminal
import Testing

@Suite struct GridDiffTests {
  private func grid(_ rows: [String]) -> CellGrid {
    var grid = CellGrid(width: rows.map(\.count).max() ?? 0, height: rows.count)
    for (y, row) in rows.enumerated() {
      for (x, character) in row.enumerated() { grid[x, y] = Cell(character) }
    }
    return grid
  }

  @Test func firstFrameWritesEveryCell() {
    let frame = grid(["ab", "cd"])
    #expect(GridDiff.changedIndices(from: nil, to: frame) == [0, 1, 2, 3])
  }

  @Test func anUnchangedFrameWritesNothing() {
    #expect(GridDiff.changedIndices(from: grid(["ab", "cd"]), to: grid(["ab", "cd"])).isEmpty)
  }

  @Test func onlyChangedCellsInRowMajorOrder() {
    #expect(
      GridDiff.changedIndices(from: grid(["abc", "def"]), to: grid(["xbc", "deY"])) == [0, 5])
  }

  @Test func styleChangesCount() {
    let before = grid(["ab"])
    var after = before
    after[1, 0] = Cell("b", foreground: .red)
    #expect(GridDiff.changedIndices(from: before, to: after) == [1])
    var underlined = before
    underlined[0, 0] = Cell("a", attributes: .underline)
    #expect(GridDiff.changedIndices(from: before, to: underlined) == [0])
  }

  @Test func aDifferentSizeWritesEveryCell() {
    let after = grid(["abc", "def"])
    #expect(GridDiff.changedIndices(from: grid(["ab", "de"]), to: after) == Array(0..<6))
    #expect(GridDiff.changedIndices(from: grid(["abc"]), to: after) == Array(0..<6))
  }
}

@Suite struct GlyphTests {
  /// A wcwidth stand-in: controls -1, combining marks 0, CJK 2, the rest 1.
  private func columns(_ value: UInt32) -> Int {
    switch value {
    case 0..<0x20, 0x7F..<0xA0: -1
    case 0x300..<0x370, 0xFE00...0xFE0F, 0x200D: 0
    case 0x4E00...0x9FFF, 0x1F300...0x1FAFF: 2
    default: 1
    }
  }

  @Test func narrowCharactersPassThrough() {
    #expect(Glyph.scalars(for: "a", columns: columns) == [0x61])
    #expect(Glyph.scalars(for: "▶", columns: columns) == [0x25B6])
  }

  @Test func combiningMarksStayWithTheirBase() {
    #expect(Glyph.scalars(for: "e\u{301}", columns: columns) == [0x65, 0x301])
  }

  @Test func anythingNotExactlyOneColumnIsReplaced() {
    #expect(Glyph.scalars(for: "漢", columns: columns) == [Glyph.replacement])
    #expect(Glyph.scalars(for: "\u{7}", columns: columns) == [Glyph.replacement])
    #expect(Glyph.scalars(for: "🙂", columns: columns) == [Glyph.replacement])
    // A narrow heart made an emoji by U+FE0F is drawn two columns wide by most terminals.
    #expect(Glyph.scalars(for: "\u{2764}\u{FE0F}", columns: columns) == [Glyph.replacement])
  }

  @Test func theLocaleDecidesWhatIsDrawable() {
    // In the C locale wcwidth is -1 for everything outside ASCII.
    let asciiOnly: (UInt32) -> Int = { $0 < 0x80 ? 1 : -1 }
    #expect(Glyph.scalars(for: "é", columns: asciiOnly) == [Glyph.replacement])
    #expect(Glyph.scalars(for: "e", columns: asciiOnly) == [0x65])
  }
}
