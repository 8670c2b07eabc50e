/// The colours the board uses. The terminal maps them to curses pairs; `.default` is the terminal's own.
public enum CellColor: UInt8, Sendable, CaseIterable {
  case `default`, black, red, green, yellow, blue, magenta, cyan, white, gray
}

/// Text attributes. They carry meaning on monochrome terminals and under NO_COLOR.
public struct CellAttributes: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  public static let bold = CellAttributes(rawValue: 1)
  public static let reverse = CellAttributes(rawValue: 2)
  public static let dim = CellAttributes(rawValue: 4)
  public static let underline = CellAttributes(rawValue: 8)
}

/// One terminal cell: a single-column character with its style.
public struct Cell: Equatable, Sendable {
  public var character: Character
  public var foreground: CellColor
  public var background: CellColor
  public var attributes: CellAttributes

  public init(
    _ character: Character = " ", foreground: CellColor = .default,
    background: CellColor = .default,
    attributes: CellAttributes = []
  ) {
    self.character = character
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  public static let blank = Cell()
}

/// A frame: what the screen should show, row-major. Rendering writes here; the terminal draws it.
public struct CellGrid: Equatable, Sendable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [Cell]

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  public subscript(x: Int, y: Int) -> Cell {
    get { cells[y * width + x] }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      cells[y * width + x] = newValue
    }
  }

  /// The grid as plain text, one line per row with trailing spaces trimmed: what golden snapshots hold.
  public var text: String {
    (0..<height).map { y in
      var line = String((0..<width).map { cells[y * width + $0].character })
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}
