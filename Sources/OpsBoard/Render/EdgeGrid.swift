/// Lines between boxes, drawn as segments whose ends meet: each cell remembers which sides it connects
/// (north, south, east, west) and gets the box-drawing character for that combination (`┬`, `├`, `┼`…).
struct EdgeGrid {
  struct Sides: OptionSet, Hashable {
    let rawValue: UInt8
    static let north = Sides(rawValue: 1)
    static let south = Sides(rawValue: 2)
    static let east = Sides(rawValue: 4)
    static let west = Sides(rawValue: 8)
  }

  struct Point: Hashable {
    var x: Int
    var y: Int
  }

  private(set) var cells: [Point: (sides: Sides, style: Style, heavy: Bool, dashed: Bool)] = [:]
  private(set) var arrows: [Point: (glyph: Character, style: Style)] = [:]

  private mutating func add(
    _ p: Point, _ sides: Sides, _ style: Style, _ heavy: Bool, _ dashed: Bool
  ) {
    var c = cells[p] ?? (Sides(), style, false, dashed)
    c.sides.formUnion(sides)
    // Highlighted (heavy) lines win where lines meet, so the marked path stays readable; a solid
    // line wins over a dashed one.
    if heavy || !c.heavy { c.style = style }
    c.heavy = c.heavy || heavy
    c.dashed = c.dashed && dashed
    cells[p] = c
  }

  mutating func horizontal(
    y: Int, from x0: Int, to x1: Int, style: Style, heavy: Bool = false, dashed: Bool = false
  ) {
    let (a, b) = (min(x0, x1), max(x0, x1))
    guard a < b else { return }
    for x in a...b {
      var s = Sides()
      if x > a { s.insert(.west) }
      if x < b { s.insert(.east) }
      add(Point(x: x, y: y), s, style, heavy, dashed)
    }
  }

  mutating func vertical(
    x: Int, from y0: Int, to y1: Int, style: Style, heavy: Bool = false, dashed: Bool = false
  ) {
    let (a, b) = (min(y0, y1), max(y0, y1))
    guard a < b else { return }
    for y in a...b {
      var s = Sides()
      if y > a { s.insert(.north) }
      if y < b { s.insert(.south) }
      add(Point(x: x, y: y), s, style, heavy, dashed)
    }
  }

  /// An arrow head drawn over whatever line is there; on dependency lines it points at what is
  /// waited for.
  mutating func arrow(x: Int, y: Int, pointing east: Bool, style: Style) {
    arrows[Point(x: x, y: y)] = (east ? "►" : "◄", style)
  }

  /// Any glyph over the line (the produced mark).
  mutating func mark(_ glyph: Character, x: Int, y: Int, style: Style) {
    arrows[Point(x: x, y: y)] = (glyph, style)
  }

  func draw(into canvas: inout Canvas, offsetX: Int = 0, offsetY: Int = 0, clip: Rect? = nil) {
    let clip = clip ?? canvas.bounds
    for (p, c) in cells {
      let x = p.x + offsetX
      let y = p.y + offsetY
      guard clip.contains(x: x, y: y) else { continue }
      var style = c.style
      if c.heavy { style.attrs.insert(.bold) }
      canvas.set(
        Self.glyph(c.sides, heavy: c.heavy, dashed: c.dashed, ascii: canvas.ascii), x: x, y: y,
        style: style)
    }
    for (p, a) in arrows {
      let x = p.x + offsetX
      let y = p.y + offsetY
      guard clip.contains(x: x, y: y) else { continue }
      canvas.set(a.glyph, x: x, y: y, style: a.style)
    }
  }

  static func glyph(_ s: Sides, heavy: Bool, dashed: Bool = false, ascii: Bool) -> Character {
    let horizontal = s.isSubset(of: [.east, .west])
    let vertical = s.isSubset(of: [.north, .south])
    if ascii {
      if horizontal { return heavy ? "=" : dashed ? "." : "-" }
      if vertical { return heavy ? "#" : dashed ? ":" : "|" }
      return "+"
    }
    if dashed && horizontal { return "┄" }
    if dashed && vertical { return "┆" }
    if horizontal { return heavy ? "━" : "─" }
    if vertical { return heavy ? "┃" : "│" }
    switch s {
    case [.south, .east]: return heavy ? "┏" : "┌"
    case [.south, .west]: return heavy ? "┓" : "┐"
    case [.north, .east]: return heavy ? "┗" : "└"
    case [.north, .west]: return heavy ? "┛" : "┘"
    case [.north, .south, .east]: return heavy ? "┣" : "├"
    case [.north, .south, .west]: return heavy ? "┫" : "┤"
    case [.east, .west, .south]: return heavy ? "┳" : "┬"
    case [.east, .west, .north]: return heavy ? "┻" : "┴"
    default: return heavy ? "╋" : "┼"
    }
  }
}
