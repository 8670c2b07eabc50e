/// Scalar typing, done here rather than by Yams' regex resolver: it is much faster on large files and
/// follows YAML 1.2 (JSON) rules, so `yes` is a string and a quoted "2" is a string, not a number.
extension SourceNode {
  /// The scalar's text and whether it was written plain (unquoted, no block style, no `!!str`).
  var plainScalar: (text: String, plain: Bool)? {
    guard case .scalar(let s) = self else { return nil }
    return (s.string, s.plain)
  }

  var isNull: Bool {
    guard let (text, plain) = plainScalar, plain else { return false }
    return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
  }

  var boolValue: Bool? {
    guard let (text, plain) = plainScalar, plain else { return nil }
    switch text {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: return nil
    }
  }

  /// A finite number written plain: digits with an optional sign, fraction and exponent.
  var numberValue: Double? {
    guard let (text, plain) = plainScalar, plain, Self.looksNumeric(text),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  var intValue: Int? {
    guard let (text, plain) = plainScalar, plain else { return nil }
    return Int(text)
  }

  /// The text of a scalar that is not null: names and strings accept `404` or `true` as text.
  var textValue: String? {
    guard let (text, _) = plainScalar, !isNull else { return nil }
    return text
  }

  /// How messages describe a value that was not what they expected.
  var found: String {
    switch self {
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    case .scalar(let s):
      if isNull { return "nothing" }
      let shown = s.string.count > 40 ? String(s.string.prefix(40)) + "…" : s.string
      if plainScalar?.plain == false { return "the string \"\(shown)\"" }
      return "'\(shown)'"
    }
  }

  private static func looksNumeric(_ text: String) -> Bool {
    var digits = 0
    for c in text.utf8 {
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
        UInt8(ascii: "E"):
        break
      default: return false
      }
    }
    return digits > 0
  }
}
