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
