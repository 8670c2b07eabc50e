import OpsCells

/// How the frame's colours are chosen. High contrast is for projectors, where dim text and dark
/// colours wash out: nothing is dim, grey becomes the terminal's own text colour, and every coloured
/// cell is bold (most terminals draw bold colours bright, which lifts executing's dark blue). Each
/// state keeps its own colour. It changes colours and weight only, so under NO_COLOR (attributes only)
/// it still reads, bolder.
public enum BoardTheme: String, Sendable, CaseIterable {
  case standard
  case highContrast = "high-contrast"

  func apply(to grid: inout CellGrid) {
    guard self == .highContrast else { return }
    for y in 0..<grid.height {
      for x in 0..<grid.width {
        var cell = grid[x, y]
        cell.attributes.remove(.dim)
        if cell.foreground == .gray { cell.foreground = .default }
        if cell.foreground != .default { cell.attributes.insert(.bold) }
        grid[x, y] = cell
      }
    }
  }
}

extension BoardAction {
  /// Switches between the standard and the high-contrast theme (a projector washes one out).
  public static let toggleTheme = BoardAction("toggleTheme")
}

extension BoardSession {
  func toggleTheme() {
    theme = theme == .highContrast ? .standard : .highContrast
    ui.status = StatusMessage(
      theme == .highContrast
        ? "theme high-contrast: nothing dim, no grey, colours bold; T again: standard"
        : "theme standard; T again: high-contrast")
  }
}
