import OpsInput

/// Names reach the viewer's terminal: the probe reports them made acceptable to the one text policy
/// (`TextPolicy.acceptableName`), and the viewer refuses a stream that carries a control character
/// (raw or JSON-escaped), as the recording reader does, then checks every name with the policy.
enum ControlCharacters {
  static func isControl(_ v: UInt32) -> Bool { v < 0x20 || (0x7f...0x9f).contains(v) }

  /// `name` as the probe reports it: acceptable to the one text policy (no control, bidi or
  /// invisible character, bounded), so the viewer's validator takes it.
  static func printable(_ name: String) -> String { TextPolicy.acceptableName(name) }

  /// Why `line` cannot be shown: a raw control byte, or a JSON escape of one; nil when it can.
  static func problem(in line: [UInt8]) -> String? {
    var i = 0
    while i < line.count {
      let b = line[i]
      if isControl(UInt32(b)) && b < 0x80 { return "a control character (byte \(b))" }
      if b == UInt8(ascii: "\\"), i + 1 < line.count {
        let e = line[i + 1]
        if "bfnrt".utf8.contains(e) {
          return "a control character (\\\(Character(UnicodeScalar(e)))) in a string"
        }
        if e == UInt8(ascii: "u"), i + 5 < line.count,
          let v = UInt32(String(decoding: line[(i + 2)...(i + 5)], as: UTF8.self), radix: 16),
          isControl(v)
        {
          return "a control character (U+\(String(v, radix: 16, uppercase: true))) in a string"
        }
        i += 2
        continue
      }
      i += 1
    }
    return nil
  }
}
