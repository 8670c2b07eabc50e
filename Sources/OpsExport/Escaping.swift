/// Each format's own escaping of user text (operation, queue, condition names, messages, notes).
/// Everything a name touches goes through one of these; ids are generated, never taken from names.
enum Escape {
  /// Text or an attribute value in XML (SVG). Characters XML 1.0 forbids become U+FFFD.
  static func xml(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A DOT double-quoted string, quotes included. Inside one only `"` needs a backslash, but
  /// Graphviz then reads `\n`, `\l`, `\N`… in labels and decodes `&…;` entities, so a literal
  /// backslash is doubled and `&` becomes `&amp;`; a line break becomes `\n`.
  static func dot(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "&": out += "&amp;"
      case "\n": out += "\\n"
      case _ where scalar.value < 0x20: out += " "
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// Text inside a Mermaid label. Mermaid decodes `#NNN;` entities in every diagram type before it
  /// parses, so anything that could be syntax (quotes, brackets, pipes, `;`, `#`, `<`, `` ` ``…)
  /// becomes one; letters, digits and plain punctuation stay readable.
  static func mermaid(_ s: String) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "-", "_", ":", "/", "(", ")", "'",
        "+", "?", "!", "=":
        out.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20: out += " "
      case _ where scalar.value > 0x7F && scalar.properties.isAlphabetic:
        out.unicodeScalars.append(scalar)
      default: out += "#\(scalar.value);"
      }
    }
    return out
  }

  /// Inline Markdown (a table cell, a list item, never at a line's start): emphasis, code, link and
  /// strike punctuation gets a backslash, `|` too (tables), HTML's `<`, `>` and `&` become entities,
  /// and a line break becomes a space.
  static func markdown(_ s: String) -> String {
    var out = ""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\\", "`", "*", "_", "[", "]", "|", "~":
        out += "\\"
        out.unicodeScalars.append(scalar)
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\n", "\r", "\t": out += " "
      case _ where scalar.value < 0x20: out += " "
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
