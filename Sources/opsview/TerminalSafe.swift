/// Text from users (file names, scenario names, messages that quote a file) made safe to print: a
/// control character would act on the terminal (`ESC [2J` clears it, `ESC ]0;…BEL` retitles the
/// window, U+009B starts a command on some terminals), so each is written as a visible escape.
enum TerminalSafe {
  /// Control characters (C0, DEL, C1) as `\e`, `\t`, `\r`, `\a` or `\xHH`, the way YAML writes them.
  /// Newlines are kept when `keepNewlines` (messages of several lines).
  static func escaped(_ text: String, keepNewlines: Bool = true) -> String {
    guard needsEscaping(text, newlines: !keepNewlines) else { return text }
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
    for scalar in text.unicodeScalars {
      let v = scalar.value
      guard v < 0x20 || (v >= 0x7F && v <= 0x9F) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n" where keepNewlines: out += "\n"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\u{1B}": out += "\\e"
      case "\u{07}": out += "\\a"
      default:
        let hex = String(v, radix: 16, uppercase: true)
        out += "\\x" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return out
  }

  /// A quick scan of the bytes: C0 and DEL are single bytes, C1 is 0xC2 followed by 0x80–0x9F.
  /// Newlines count only when `newlines`.
  static func needsEscaping(_ text: String, newlines: Bool) -> Bool {
    needsEscaping(bytes: text.utf8, newlines: newlines)
  }

  /// `needsEscaping` over UTF-8 bytes already written to a buffer.
  static func needsEscaping(bytes: some Sequence<UInt8>, newlines: Bool) -> Bool {
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 && (newlines || byte != 0x0A) || byte == 0x7F { return true }
      if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { return true }
      previous = byte
    }
    return false
  }
}
