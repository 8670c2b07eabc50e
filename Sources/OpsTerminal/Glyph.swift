import OpsCells

/// What actually goes into a screen cell. The grid gives a wide character (CJK, emoji) two cells: the
/// character and a `CellWidth.continuation` after it. Anything the terminal would draw at another
/// width than the grid expects (controls, characters the locale cannot encode, a wide character
/// without its second cell) is replaced rather than allowed to shift the rest of the row.
public enum Glyph {
  /// Drawn instead of a character that would not fill its cells exactly.
  public static let replacement: UInt32 = 0x3F  // "?"

  /// The code points for one cell: a base character of width 1 plus up to four combining marks.
  /// `columns` is the terminal's width function (wcwidth).
  public static func scalars(for character: Character, columns: (UInt32) -> Int) -> [UInt32] {
    let drawn = cell(for: character, cells: 1, columns: columns)
    return drawn.width == 1 ? drawn.scalars : [replacement]
  }

  /// What to draw for a character given `cells` (1, or 2 when the grid reserved a continuation): the
  /// code points and the columns the terminal will use for them. A wide character is drawn when the
  /// terminal agrees it is wide; a character the terminal draws narrow in two cells is followed by a
  /// blank (the caller's), so the row never shifts.
  public static func cell(for character: Character, cells: Int, columns: (UInt32) -> Int)
    -> (scalars: [UInt32], width: Int)
  {
    let scalars = character.unicodeScalars
    guard let base = scalars.first else { return ([replacement], 1) }
    let width = columns(base.value)
    guard width == 1 || (width == 2 && cells == 2) else { return ([replacement], 1) }
    var result = [base.value]
    for mark in scalars.dropFirst() {
      // U+FE0F (emoji presentation) and U+200D (joiner) make a two-column emoji out of narrow
      // parts: in one cell that would shift the row; in two, the base alone is drawn.
      if mark.value == 0xFE0F || mark.value == 0x200D {
        if cells == 2 { break }
        return ([replacement], 1)
      }
      guard columns(mark.value) == 0 else { return ([replacement], 1) }
      if result.count < 5 { result.append(mark.value) }
    }
    return (result, width)
  }

  /// The indices to draw for `changed` cells of `grid`: a wide character and its continuation are
  /// drawn together, so a change to either redraws both.
  public static func cellsToDraw(_ changed: [Int], in grid: CellGrid) -> [Int] {
    let cells = grid.cells
    guard cells.contains(where: { $0.character == CellWidth.continuation }) else { return changed }
    var extra: [Int] = []
    for index in changed {
      let x = index % max(1, grid.width)
      if cells[index].character == CellWidth.continuation, x > 0 { extra.append(index - 1) }
      if x + 1 < grid.width, cells[index + 1].character == CellWidth.continuation {
        extra.append(index + 1)
      }
    }
    return extra.isEmpty ? changed : Array(Set(changed + extra)).sorted()
  }
}
