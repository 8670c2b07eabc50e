/// A rectangle of cells.
struct Rect: Equatable, Sendable {
  var x: Int
  var y: Int
  var width: Int
  var height: Int

  init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  var maxX: Int { x + width }
  var maxY: Int { y + height }
  var isEmpty: Bool { width <= 0 || height <= 0 }
  func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
  /// The rows from `top` (relative) down, `count` tall.
  func rows(from top: Int, count: Int) -> Rect {
    Rect(x: x, y: y + top, width: width, height: min(count, height - top))
  }
}

/// Colour and attributes of drawn text.
struct Style: Equatable, Sendable {
  var fg: CellColor = .default
  var bg: CellColor = .default
  var attrs: CellAttributes = []

  static let plain = Style()
  static let bold = Style(attrs: .bold)
  static let dim = Style(fg: .gray, attrs: .dim)
  static let title = Style(fg: .cyan, attrs: .bold)
  static let rule = Style(fg: .gray)
  static let good = Style(fg: .green, attrs: .bold)
  static let bad = Style(fg: .red, attrs: .bold)

  func with(_ more: CellAttributes) -> Style {
    var s = self
    s.attrs.formUnion(more)
    return s
  }
}

/// Drawing into a grid, clipped, with ASCII transliteration when the terminal cannot show Unicode.
struct Canvas {
  var grid: CellGrid
  let ascii: Bool

  init(width: Int, height: Int, ascii: Bool) {
    grid = CellGrid(width: width, height: height)
    self.ascii = ascii
  }

  var width: Int { grid.width }
  var height: Int { grid.height }
  var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

  mutating func set(_ ch: Character, x: Int, y: Int, style: Style = .plain) {
    guard x >= 0, y >= 0, x < grid.width, y < grid.height else { return }
    let c: Character = ascii ? (Self.asciiCharacter(ch)) : ch
    grid[x, y] = Cell(c, foreground: style.fg, background: style.bg, attributes: style.attrs)
  }

  /// Writes `text` from (x, y), at most `width` cells; a longer text ends in an ellipsis. A wide
  /// character (CJK, emoji) takes two cells: itself and a `CellWidth.continuation`. Returns the
  /// number of cells written.
  @discardableResult
  mutating func put(
    _ text: String, x: Int, y: Int, width: Int? = nil, style: Style = .plain, ellipsis: Bool = true
  ) -> Int {
    let limit = min(width ?? Int.max, grid.width - x)
    guard limit > 0, y >= 0, y < grid.height else { return 0 }
    let chars = ascii ? Array(Self.transliterate(text)) : Array(text)
    let widths = ascii ? [] : chars.map(CellWidth.columns)
    func columns(_ i: Int) -> Int { ascii ? 1 : widths[i] }
    let total = ascii ? chars.count : widths.reduce(0, +)
    let cut = total > limit
    // Room for the text, less one cell for the ellipsis when it is cut.
    let room = cut && ellipsis ? limit - 1 : limit
    func write(_ ch: Character, at column: Int) {
      guard x + column >= 0 else { return }
      grid[x + column, y] = Cell(
        ch, foreground: style.fg, background: style.bg, attributes: style.attrs)
    }
    var used = 0
    for (i, ch) in chars.enumerated() {
      let w = columns(i)
      if used + w > room { break }
      write(ch, at: used)
      if w == 2 { write(CellWidth.continuation, at: used + 1) }
      used += w
    }
    if cut && ellipsis {
      write(ascii ? "~" : "…", at: used)
      used += 1
    }
    // A wide character that did not fit leaves one cell: keep it blank rather than stale.
    while cut && used < limit {
      write(" ", at: used)
      used += 1
    }
    return used
  }

  /// Writes text right-aligned to end at `maxX` (exclusive); text that would start left of `minX`
  /// starts there instead, cut to fit.
  @discardableResult
  mutating func putRight(
    _ text: String, maxX: Int, minX: Int = .min, y: Int, style: Style = .plain
  ) -> Int {
    let n = ascii ? Self.transliterate(text).count : text.reduce(0) { $0 + CellWidth.columns($1) }
    let x = max(minX, maxX - n)
    return put(text, x: x, y: y, width: maxX - x, style: style)
  }

  mutating func fill(_ rect: Rect, _ ch: Character = " ", style: Style = .plain) {
    for y in max(0, rect.y)..<min(grid.height, rect.maxY) {
      for x in max(0, rect.x)..<min(grid.width, rect.maxX) { set(ch, x: x, y: y, style: style) }
    }
  }

  /// Adds attributes over a region (the selection highlight).
  mutating func highlight(_ rect: Rect, _ attrs: CellAttributes) {
    for y in max(0, rect.y)..<min(grid.height, rect.maxY) {
      for x in max(0, rect.x)..<min(grid.width, rect.maxX) {
        var c = grid[x, y]
        c.attributes.formUnion(attrs)
        grid[x, y] = c
      }
    }
  }

  /// A pane title drawn as a rule: `─ Queues (3) ─────`.
  mutating func titleRule(_ title: String, in rect: Rect, right: String? = nil) {
    guard !rect.isEmpty else { return }
    for x in rect.x..<rect.maxX { set("─", x: x, y: rect.y, style: .rule) }
    var x = rect.x + 1
    x += put(" \(title) ", x: x, y: rect.y, width: rect.width - 2, style: .title)
    if let r = right, rect.width - (x - rect.x) > r.count + 4 {
      putRight(" \(r) ", maxX: rect.maxX - 1, y: rect.y, style: .rule)
    }
  }

  /// A box border around `rect` with a title on the top edge.
  mutating func box(_ rect: Rect, title: String, style: Style = .rule) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    fill(rect)
    for x in rect.x + 1..<rect.maxX - 1 {
      set("─", x: x, y: rect.y, style: style)
      set("─", x: x, y: rect.maxY - 1, style: style)
    }
    for y in rect.y + 1..<rect.maxY - 1 {
      set("│", x: rect.x, y: y, style: style)
      set("│", x: rect.maxX - 1, y: y, style: style)
    }
    set("┌", x: rect.x, y: rect.y, style: style)
    set("┐", x: rect.maxX - 1, y: rect.y, style: style)
    set("└", x: rect.x, y: rect.maxY - 1, style: style)
    set("┘", x: rect.maxX - 1, y: rect.maxY - 1, style: style)
    put(" \(title) ", x: rect.x + 2, y: rect.y, width: rect.width - 4, style: .title)
  }

  // MARK: - ASCII

  static func asciiCharacter(_ ch: Character) -> Character {
    if ch.isASCII { return ch }
    switch ch {
    case "─", "━", "═": return "-"
    case "│", "┃", "║": return "|"
    case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼", "┏", "┓", "┗", "┛", "┣", "┫", "┳", "┻", "╋":
      return "+"
    case "►", "▶", "→", "›": return ">"
    case "◄", "◀", "←": return "<"
    case "▼", "↓": return "v"
    case "▲", "↑": return "^"
    case "…": return "~"
    case "■": return "#"
    case "↺": return "@"
    case "▏": return "_"
    case "×": return "x"
    case "✓": return "v"
    case "✗", "✕": return "x"
    case "·": return "."
    case "█", "▓", "▒", "░", "▉", "▊", "▋", "▌", "▍", "▎": return "#"
    default: return "?"
    }
  }

  /// Text for an ASCII terminal: arrows and symbols spelled out, anything else non-ASCII as `?`.
  static func transliterate(_ text: String) -> String {
    guard !text.allSatisfy(\.isASCII) else { return text }
    var out = ""
    for ch in text {
      switch ch {
      case "→": out += "->"
      case "←": out += "<-"
      case "…": out += "..."
      case "∞": out += "inf"
      case "⌨": out += "key:"
      case "»": out += ">>"
      case "‖": out += "||"
      case "—", "–": out += "-"
      default: out.append(asciiCharacter(ch))
      }
    }
    return out
  }
}
