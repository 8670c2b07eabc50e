import CNCursesW
import OpsCells

/// What the terminal can do with colour, read once after `start_color`.
public struct ColorSupport: Sendable, Equatable {
  /// COLORS: 8, 16, 256 …
  public var colors: Int
  /// COLOR_PAIRS: how many pairs may be defined (pair 0 is fixed).
  public var pairs: Int
  /// `use_default_colors` succeeded, so -1 means the terminal's own foreground/background.
  public var defaultColors: Bool

  public init(colors: Int, pairs: Int, defaultColors: Bool) {
    self.colors = colors
    self.pairs = pairs
    self.defaultColors = defaultColors
  }
}

/// The curses attribute bits for the board's attributes.
public struct AttributeBits: Sendable, Equatable {
  public var bold: UInt32
  public var reverse: UInt32
  public var dim: UInt32
  public var underline: UInt32

  public init(bold: UInt32, reverse: UInt32, dim: UInt32, underline: UInt32) {
    self.bold = bold
    self.reverse = reverse
    self.dim = dim
    self.underline = underline
  }

  public static let ncurses = AttributeBits(
    bold: UInt32(opsview_a_bold()), reverse: UInt32(opsview_a_reverse()),
    dim: UInt32(opsview_a_dim()),
    underline: UInt32(opsview_a_underline()))
}

/// How one cell is drawn: a colour pair and attribute bits.
public struct CursesStyle: Sendable, Equatable {
  public var pair: Int32
  public var attributes: UInt32

  public init(pair: Int32, attributes: UInt32) {
    self.pair = pair
    self.attributes = attributes
  }
}

/// A colour pair that must be defined (`init_pair`) before its first use.
public struct PairDefinition: Sendable, Equatable {
  public var pair: Int32
  public var foreground: Int32
  public var background: Int32

  public init(pair: Int32, foreground: Int32, background: Int32) {
    self.pair = pair
    self.foreground = foreground
    self.background = background
  }
}

/// Maps cell styles to curses styles, allocating colour pairs on first use. With no colour support
/// (NO_COLOR, a monochrome terminal) only attributes are drawn, and the meaning colour carried is
/// kept where attributes can say it: gray text is dim, a coloured background becomes reverse video.
public struct StyleTable: Sendable {
  public let support: ColorSupport?
  public let bits: AttributeBits
  private var pairs: [Int32: Int32] = [:]  // (fg << 16 | bg) → pair number
  private var nextPair: Int32 = 1

  /// `support` nil: draw without colour.
  public init(support: ColorSupport?, bits: AttributeBits = .ncurses) {
    self.support = support
    self.bits = bits
  }

  /// The style for `cell`, and the pair to define first if this is the first use of its colours.
  public mutating func style(
    foreground: CellColor, background: CellColor, attributes: CellAttributes
  ) -> (style: CursesStyle, define: PairDefinition?) {
    var extra: CellAttributes = []
    guard let support else {
      if foreground == .gray { extra.insert(.dim) }
      if background != .default, !attributes.contains(.reverse) { extra.insert(.reverse) }
      return (CursesStyle(pair: 0, attributes: attributeBits(attributes.union(extra))), nil)
    }
    let fg = Self.colorNumber(foreground, background: false, support: support)
    let bg = Self.colorNumber(background, background: true, support: support)
    if fg.dim { extra.insert(.dim) }
    let (pair, define) = allocatePair(
      foreground: fg.number, background: bg.number, support: support)
    return (CursesStyle(pair: pair, attributes: attributeBits(attributes.union(extra))), define)
  }

  /// The curses colour for a cell colour; `dim` when gray has to be faked with dim white.
  public static func colorNumber(
    _ color: CellColor, background: Bool, support: ColorSupport
  ) -> (number: Int32, dim: Bool) {
    switch color {
    case .default:
      if support.defaultColors { return (-1, false) }
      return (background ? Int32(COLOR_BLACK) : Int32(COLOR_WHITE), false)
    case .black: return (Int32(COLOR_BLACK), false)
    case .red: return (Int32(COLOR_RED), false)
    case .green: return (Int32(COLOR_GREEN), false)
    case .yellow: return (Int32(COLOR_YELLOW), false)
    case .blue: return (Int32(COLOR_BLUE), false)
    case .magenta: return (Int32(COLOR_MAGENTA), false)
    case .cyan: return (Int32(COLOR_CYAN), false)
    case .white: return (Int32(COLOR_WHITE), false)
    case .gray:
      if support.colors >= 16 { return (8, false) }  // bright black
      return (Int32(COLOR_WHITE), !background)
    }
  }

  private func attributeBits(_ attributes: CellAttributes) -> UInt32 {
    var result: UInt32 = 0
    if attributes.contains(.bold) { result |= bits.bold }
    if attributes.contains(.reverse) { result |= bits.reverse }
    if attributes.contains(.dim) { result |= bits.dim }
    if attributes.contains(.underline) { result |= bits.underline }
    return result
  }

  private mutating func allocatePair(
    foreground: Int32, background: Int32, support: ColorSupport
  ) -> (Int32, PairDefinition?) {
    // Pair 0 is the terminal's default pair (default colours, or white on black without them).
    let defaultNumber = Self.colorNumber(.default, background: false, support: support).number
    let defaultBackground = Self.colorNumber(.default, background: true, support: support).number
    if foreground == defaultNumber, background == defaultBackground { return (0, nil) }
    let key = (foreground + 1) << 16 | (background + 1)
    if let pair = pairs[key] { return (pair, nil) }
    guard Int(nextPair) < support.pairs else {
      // Out of pairs: keep the foreground on the default background if that exists, else pair 0.
      if background != defaultBackground,
        let pair = pairs[(foreground + 1) << 16 | (defaultBackground + 1)]
      {
        return (pair, nil)
      }
      return (0, nil)
    }
    let pair = nextPair
    nextPair += 1
    pairs[key] = pair
    return (pair, PairDefinition(pair: pair, foreground: foreground, background: background))
  }
}

/// Colour on or off, decided before the screen starts.
public enum ColorPolicy {
  /// `option` wins when set; otherwise colour is used unless NO_COLOR is set to a non-empty value
  /// (https://no-color.org) or the terminal has no colours.
  public static func useColor(option: Bool?, noColor: String?, terminalHasColors: Bool) -> Bool {
    guard terminalHasColors else { return false }
    if let option { return option }
    if let noColor, !noColor.isEmpty { return false }
    return true
  }
}
