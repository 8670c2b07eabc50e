/// The one policy for text that comes from outside (scenario files, recordings, standard input, a
/// probe's stream, the command line) and for every byte that reaches a terminal or a handout.
///
/// Accepting: a name (operation, queue, condition, category, scenario id) is one line of visible
/// characters, at most `maxNameBytes`; a line of text (a title, an error message) has no control,
/// bidirectional or separator characters; free text (notes, a scenario's source) may also have
/// newlines and tabs. The scenario loader, the recording reader and the probe client ask the same
/// questions, so what one accepts the others accept.
///
/// Writing: `escaped` turns whatever would act on a terminal (C0, DEL, C1: `ESC [2J` clears it,
/// `ESC ]0;…BEL` retitles the window, U+009B starts a command on some terminals) or silently reorder
/// or break the text around it (bidirectional controls such as U+202E, line and paragraph separators)
/// into a visible escape; `sanitized` does the same to bytes already written (an export's output).
public enum TextPolicy {
  /// Longest name accepted, in UTF-8 bytes: far above any name a board column shows, and short
  /// enough that sorting, searching and laying out thousands of them stays fast.
  public static let maxNameBytes = 256

  /// What is wrong with a piece of text, for a message: `description(what:)` completes
  /// "… in an operation name".
  public enum Problem: Sendable, Equatable {
    /// C0, DEL or C1 (a newline or a tab where the text must be one line counts too).
    case control(Unicode.Scalar)
    /// U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: they reorder what is printed after them.
    case bidirectional(Unicode.Scalar)
    /// U+2028, U+2029: a line break to some readers and not to others.
    case separator(Unicode.Scalar)
    /// A character that shows nothing (U+200B, U+FEFF, U+00AD…): two names would look the same.
    case invisible(Unicode.Scalar)
    /// Empty, or only spaces.
    case blank
    /// A space (of any kind) at the start or the end.
    case edgeSpace
    /// Longer than `maxNameBytes` (the length found).
    case tooLong(Int)

    /// "control character U+001B in an operation name", "an operation name cannot be blank";
    /// `place` (a path in a file) follows what: "… in an operation name at operations[2].name: …".
    public func description(what: String, at place: String? = nil) -> String {
      let at = place.map { " at \($0)" } ?? ""
      return switch self {
      case .control(let s): "control character \(s.codePoint) in \(what)\(at)"
      case .bidirectional(let s):
        "bidirectional control \(s.codePoint) in \(what)\(at): it reorders the text printed after it"
      case .separator(let s):
        "line separator \(s.codePoint) in \(what)\(at): some readers break the line there, others do not"
      case .invisible(let s):
        "invisible character \(s.codePoint) in \(what)\(at): names that differ only by it look the same"
      case .blank: "\(what)\(at) cannot be blank"
      case .edgeSpace: "\(what)\(at) cannot begin or end with a space"
      case .tooLong(let n): "\(what)\(at) of \(n) bytes: at most \(TextPolicy.maxNameBytes)"
      }
    }
  }

  // MARK: - Accepting

  /// Why `name` cannot be a name; nil when it can.
  public static func nameProblem(_ name: String) -> Problem? {
    let utf8 = name.utf8
    if utf8.count > maxNameBytes { return .tooLong(utf8.count) }
    // Most names are printable ASCII: one pass over the bytes settles them.
    var plain = true
    for byte in utf8 where byte < 0x20 || byte >= 0x7F {
      plain = false
      break
    }
    if plain {
      guard let first = utf8.first, let last = utf8.last else { return .blank }
      if first == 0x20 || last == 0x20 {
        return utf8.allSatisfy { $0 == 0x20 } ? .blank : .edgeSpace
      }
      return nil
    }
    if let problem = lineProblem(name) { return problem }
    var previous: Unicode.Scalar?
    var visible = false
    for scalar in name.unicodeScalars {
      if isInvisible(scalar, after: previous) { return .invisible(scalar) }
      if !scalar.properties.isWhitespace { visible = true }
      previous = scalar
    }
    if !visible { return .blank }
    if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
      first.properties.isWhitespace || last.properties.isWhitespace
    {
      return .edgeSpace
    }
    // A joiner or selector must join or select something: not the last character.
    if let last = name.unicodeScalars.last, last == "\u{200D}" { return .invisible(last) }
    return nil
  }

  /// `name` made acceptable (for a program's own names, which a probe reports as they are): each
  /// character `nameProblem` refuses becomes `?`, spaces at the ends go, a name longer than
  /// `maxNameBytes` is cut (on a character) and ends in `…`, and nothing at all reads `fallback`.
  public static func acceptableName(_ name: String, fallback: String = "unnamed") -> String {
    guard nameProblem(name) != nil else { return name }
    var out = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in name.unicodeScalars {
      let refused =
        scalar.isControlCharacter || scalar.isBidirectionalControl || scalar.isLineSeparator
        || isInvisible(scalar, after: previous)
      out.append(refused ? "?" : scalar)
      previous = scalar
    }
    var text = String(out).trimmingEdges()
    if text.utf8.count > maxNameBytes {
      var cut = ""
      for character in text {
        if cut.utf8.count + character.utf8.count + 3 > maxNameBytes { break }
        cut.append(character)
      }
      text = cut.trimmingEdges() + "…"
    }
    if text.last == "\u{200D}" { text.removeLast() }
    return nameProblem(text) == nil ? text : fallback
  }

  /// Why `text` cannot be one line of text (a title, a message); nil when it can.
  public static func lineProblem(_ text: String) -> Problem? {
    textProblem(text, newlines: false)
  }

  /// Why `text` cannot be free text (notes: newlines and tabs allowed); nil when it can.
  public static func notesProblem(_ text: String) -> Problem? {
    textProblem(text, newlines: true)
  }

  private static func textProblem(_ text: String, newlines: Bool) -> Problem? {
    // Bytes first: what this policy refuses is a control byte or one of a few three-byte (and one
    // two-byte) sequences, so text without any of their lead bytes is settled in one pass.
    var suspicious = false
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
        suspicious = true
        break
      }
    }
    guard suspicious else { return nil }
    for scalar in text.unicodeScalars {
      if scalar.isControlCharacter {
        if newlines && (scalar == "\n" || scalar == "\t") { continue }
        return .control(scalar)
      }
      if scalar.isBidirectionalControl { return .bidirectional(scalar) }
      if scalar.isLineSeparator { return .separator(scalar) }
    }
    return nil
  }

  /// Shows nothing and is not part of an emoji sequence: the default-ignorable characters (zero
  /// widths, joiners, the soft hyphen, fillers, tags, variation selectors), except a zero-width
  /// joiner or a variation selector right after an emoji (👩‍💻, ❤️).
  private static func isInvisible(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?)
    -> Bool
  {
    guard scalar.value >= 0xAD else { return false }
    let properties = scalar.properties
    guard
      properties.isDefaultIgnorableCodePoint || scalar.value == 0x3164
        || scalar.value == 0xFFA0 || scalar.value == 0x115F || scalar.value == 0x1160
    else { return false }
    let joinsEmoji =
      scalar == "\u{200D}" || (0xFE00...0xFE0F).contains(scalar.value)
    if joinsEmoji, let previous,
      previous.properties.isEmoji
        || previous.properties.isEmojiModifier || (0xFE00...0xFE0F).contains(previous.value)
    {
      return false
    }
    return true
  }

  /// Where the first line or paragraph separator (U+2028, U+2029) of `text` is, 1-based, counting
  /// lines by newlines: YAML readers disagree on whether it ends a line, so a file that holds one
  /// would have its problems reported on the wrong lines. One pass over the bytes.
  public static func firstSeparator(in text: String) -> (line: Int, column: Int)? {
    var text = text
    return text.withUTF8 { bytes -> (Int, Int)? in
      var line = 1
      var lineStart = 0
      var i = 0
      let count = bytes.count
      while i < count {
        let byte = bytes[i]
        if byte == 0x0A {
          line += 1
          lineStart = i + 1
        } else if byte == 0xE2, i + 2 < count, bytes[i + 1] == 0x80,
          bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9
        {
          let column =
            String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<i]), as: UTF8.self)
            .unicodeScalars.count + 1
          return (line, column)
        }
        i += 1
      }
      return nil
    }
  }

  // MARK: - Writing

  /// `text` with every character `needsEscaping` finds written as a visible escape: `\e`, `\t`,
  /// `\r`, `\a`, `\xHH` for controls (as YAML writes them), `\u202E` for the others. Newlines are
  /// kept when `keepNewlines` (messages of several lines).
  public static func escaped(_ text: String, keepNewlines: Bool = true) -> String {
    guard needsEscaping(text, newlines: !keepNewlines) else { return text }
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
    for scalar in text.unicodeScalars {
      if scalar == "\n" && keepNewlines {
        out += "\n"
      } else {
        appendEscaped(scalar, to: &out)
      }
    }
    return out
  }

  /// A name quoted in a message about it: `escaped`, and its invisible characters written as
  /// escapes too (a message about "invisible character U+200B" must show where it is).
  public static func quotedName(_ text: String) -> String {
    var out = ""
    var previous: Unicode.Scalar?
    for scalar in escaped(text, keepNewlines: false).unicodeScalars {
      if isInvisible(scalar, after: previous) {
        out += "\\u" + String(scalar.codePoint.dropFirst(2))
      } else {
        out.unicodeScalars.append(scalar)
      }
      previous = scalar
    }
    return out
  }

  /// `scalar`, or its visible escape when `escaped` escapes it.
  private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
    if scalar.isControlCharacter {
      switch scalar {
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\u{1B}": out += "\\e"
      case "\u{07}": out += "\\a"
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\x" + (hex.count == 1 ? "0" : "") + hex
      }
    } else if scalar.isBidirectionalControl || scalar.isLineSeparator {
      out += "\\u" + String(scalar.codePoint.dropFirst(2))
    } else {
      out.unicodeScalars.append(scalar)
    }
  }

  /// Whether `escaped` would change `text`. Newlines count only when `newlines`.
  /// (Inlinable, as the scan below: writers call it on every line they print, and unspecialized
  /// across modules the scan cost a text trace more than twice its time.)
  @inlinable
  public static func needsEscaping(_ text: String, newlines: Bool) -> Bool {
    needsEscaping(bytes: text.utf8, newlines: newlines)
  }

  /// `needsEscaping` over UTF-8 bytes already written to a buffer: C0 and DEL are single bytes, C1
  /// is 0xC2 0x80–0x9F, U+061C is 0xD8 0x9C, and the bidirectional controls and separators are
  /// 0xE2 0x80 0x8E–0x8F, 0xA8–0xAE and 0xE2 0x81 0xA6–0xA9.
  @inlinable
  public static func needsEscaping(bytes: some Sequence<UInt8>, newlines: Bool) -> Bool {
    var before: UInt8 = 0
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 {
        if newlines || byte != 0x0A { return true }
      } else if byte == 0x7F {
        return true
      } else if byte >= 0x80 && isEscapedSequence(before, previous, byte) {
        return true
      }
      before = previous
      previous = byte
    }
    return false
  }

  /// Whether `byte`, after `before` and `previous`, ends the UTF-8 of a character `escaped` escapes.
  @inlinable @inline(__always)
  static func isEscapedSequence(_ before: UInt8, _ previous: UInt8, _ byte: UInt8) -> Bool {
    switch previous {
    case 0xC2: return byte <= 0x9F
    case 0xD8: return byte == 0x9C
    case 0x80:
      return before == 0xE2 && (byte == 0x8E || byte == 0x8F || (0xA8...0xAE).contains(byte))
    case 0x81: return before == 0xE2 && (0xA6...0xA9).contains(byte)
    default: return false
    }
  }

  /// Bytes of text a program wrote (an export) with what `escaped` escapes made visible; newlines,
  /// tabs and carriage returns (a CRLF file) are kept. Returns `bytes` itself when nothing is found
  /// (one pass over them, the usual case).
  public static func sanitized(_ bytes: [UInt8]) -> [UInt8] {
    func kept(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x09 || byte == 0x0D }
    let clean = bytes.withUnsafeBufferPointer { buffer -> Bool in
      var before: UInt8 = 0
      var previous: UInt8 = 0
      for byte in buffer {
        if byte < 0x20 {
          if !kept(byte) { return false }
        } else if byte == 0x7F {
          return false
        } else if byte >= 0x80 && isEscapedSequence(before, previous, byte) {
          return false
        }
        before = previous
        previous = byte
      }
      return true
    }
    if clean { return bytes }
    var out = ""
    out.unicodeScalars.reserveCapacity(bytes.count + 64)
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      if scalar.value < 0x80 && kept(UInt8(scalar.value)) {
        out.unicodeScalars.append(scalar)
      } else {
        appendEscaped(scalar, to: &out)
      }
    }
    return Array(out.utf8)
  }
}

extension String {
  /// Without white space at either end.
  fileprivate func trimmingEdges() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    return String(scalars[first...last])
  }
}

extension Unicode.Scalar {
  /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F): the characters a terminal acts on.
  public var isControlCharacter: Bool { value < 0x20 || (value >= 0x7F && value <= 0x9F) }

  /// The characters that change the direction of what follows them (Unicode's Bidi_Control).
  public var isBidirectionalControl: Bool {
    switch value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
  public var isLineSeparator: Bool { value == 0x2028 || value == 0x2029 }

  /// `U+001B`.
  public var codePoint: String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
