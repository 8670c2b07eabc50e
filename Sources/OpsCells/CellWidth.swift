/// How many cells a character takes on a terminal: 2 for wide characters (CJK ideographs, kana,
/// Hangul, fullwidth forms, emoji), 1 otherwise. The board lays text out with it; the terminal draws a
/// wide character over its cell and the `continuation` cell after it.
public enum CellWidth {
  /// The right half of a wide character: the cell after it holds this and is not drawn on its own.
  public static let continuation: Character = "\u{200B}"

  public static func columns(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let base = scalars.first else { return 1 }
    if base.value < 0x1100 { return scalars.count > 1 && scalars.contains("\u{FE0F}") ? 2 : 1 }
    if base.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") { return 2 }
    return isWide(base.value) ? 2 : 1
  }

  /// The cells `text` takes, counted up to `limit` (a longer text gives `limit`; a limit of 0 or
  /// less gives 0). ASCII text is measured by its bytes, without walking its characters: the graph's
  /// layout measures every operation's name each time it is laid out.
  public static func columns(of text: String, upTo limit: Int = .max) -> Int {
    guard limit > 0 else { return 0 }
    let utf8 = text.utf8
    if utf8.allSatisfy({ $0 < 0x80 }) { return min(utf8.count, limit) }
    var total = 0
    for character in text {
      total += columns(character)
      if total >= limit { return limit }
    }
    return total
  }

  /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F), without emoji,
  /// which `isEmojiPresentation` covers.
  private static func isWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
      0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
      0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F202, 0x1F210...0x1F23B,
      0x1F240...0x1F248, 0x1F250...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      true
    default: false
    }
  }
}
