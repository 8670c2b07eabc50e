import OpsCells

/// Which cells to write to turn the screen from one frame into the next. Pure and terminal-free.
public enum GridDiff {
  /// Row-major indices of the cells of `new` that differ from `old`, in drawing order. Every cell
  /// when there is no previous frame (first draw, after a resize or Ctrl-L) or its size differs.
  public static func changedIndices(from old: CellGrid?, to new: CellGrid) -> [Int] {
    guard let old, old.width == new.width, old.height == new.height else {
      return Array(new.cells.indices)
    }
    var changed: [Int] = []
    old.cells.withUnsafeBufferPointer { before in
      new.cells.withUnsafeBufferPointer { after in
        for index in after.indices where before[index] != after[index] {
          changed.append(index)
        }
      }
    }
    return changed
  }
}

/// What actually goes into a screen cell. The grid promises one column per cell, so anything the
/// terminal would draw wider or not at all (wide CJK/emoji, controls, characters the locale cannot
/// encode) is replaced rather than allowed to shift the rest of the row.
public enum Glyph {
  /// Drawn instead of a character that would not fill exactly one column.
  public static let replacement: UInt32 = 0x3F  // "?"

  /// The code points for one cell: a base character of width 1 plus up to four combining marks.
  /// `columns` is the terminal's width function (wcwidth).
  public static func scalars(for character: Character, columns: (UInt32) -> Int) -> [UInt32] {
    let scalars = character.unicodeScalars
    guard let base = scalars.first, columns(base.value) == 1 else { return [replacement] }
    var result = [base.value]
    for mark in scalars.dropFirst() {
      // U+FE0F (emoji presentation) and U+200D (joiner) make a two-column emoji out of narrow parts.
      guard mark.value != 0xFE0F, mark.value != 0x200D else { return [replacement] }
      guard columns(mark.value) == 0 else { return [replacement] }
      if result.count < 5 { result.append(mark.value) }
    }
    return result
  }
}
