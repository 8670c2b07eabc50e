import OpsBoard
import SnapshotTesting

/// A golden screen with its styles, after ratatui's buffer dump: the text, then for each row the
/// runs of cells that are not plain (`12: 0-79 reverse; 2 fg:blue bold`). A lost highlight or a
/// changed colour fails the test as a changed character does.
extension Snapshotting where Value == CellGrid, Format == String {
  static var styled: Snapshotting {
    Snapshotting<String, String>.lines.pullback { $0.styledDump }
  }
}

extension CellGrid {
  var styledDump: String {
    var out = text + "\n--- styles: row: columns style ---"
    for y in 0..<height {
      var runs: [String] = []
      var x = 0
      while x < width {
        let c = self[x, y]
        let style = Self.describe(c)
        var end = x
        while end + 1 < width, Self.describe(self[end + 1, y]) == style { end += 1 }
        if !style.isEmpty { runs.append((end == x ? "\(x)" : "\(x)-\(end)") + " " + style) }
        x = end + 1
      }
      if !runs.isEmpty { out += "\n\(y): " + runs.joined(separator: "; ") }
    }
    return out
  }

  private static func describe(_ c: Cell) -> String {
    var parts: [String] = []
    if c.foreground != .default { parts.append("fg:\(c.foreground)") }
    if c.background != .default { parts.append("bg:\(c.background)") }
    let names: [(CellAttributes, String)] = [
      (.bold, "bold"), (.reverse, "reverse"), (.dim, "dim"), (.underline, "underline"),
    ]
    for (a, n) in names where c.attributes.contains(a) { parts.append(n) }
    return parts.joined(separator: " ")
  }
}
