/// Yams checks mapping keys for duplicates by hashing them, and an alias-built key can stand for an
/// exponentially large tree ("billion laughs"), which would hang the loader. Scenario keys are always
/// plain names, so a key that is an alias, a collection or an explicit `?` key is an error anyway; this
/// finds one before parsing. It only looks when the text has both an anchor and an alias, so ordinary
/// files (and prose in notes) are never affected.
enum ComplexKeyGuard {
  static func find(in text: String) -> (line: Int, column: Int)? {
    // Bytes, not Foundation's `contains`: this runs on every file, and large ones have neither.
    guard text.utf8.contains(UInt8(ascii: "&")), text.utf8.contains(UInt8(ascii: "*")) else {
      return nil
    }
    var lineNumber = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let s = Array(line.unicodeScalars)
      var i = 0
      // Skip indentation and sequence dashes ("  - - ").
      while i < s.count, s[i] == " " || (s[i] == "-" && (i + 1 == s.count || s[i + 1] == " ")) {
        i += 1
      }
      if i < s.count, s[i] == "#" { continue }
      if i < s.count, s[i] == "?", i + 1 == s.count || s[i + 1] == " " {
        return (lineNumber, i + 1)
      }
      for j in i..<s.count {
        switch s[j] {
        case "?"
        where j + 1 < s.count && s[j + 1] == " " && j > 0 && (s[j - 1] == "{" || s[j - 1] == " "):
          if previousNonSpace(s, before: j).map({ $0 == "{" || $0 == "," }) == true {
            return (lineNumber, j + 1)
          }
        case "]", "}":
          if isKeyColon(s, after: j + 1) { return (lineNumber, j + 1) }
        case "*":
          var k = j + 1
          while k < s.count,
            s[k].properties.isAlphabetic || s[k].properties.numericType != nil
              || s[k] == "_" || s[k] == "-"
          {
            k += 1
          }
          if k > j + 1, isKeyColon(s, after: k) { return (lineNumber, j + 1) }
        default: break
        }
      }
    }
    return nil
  }

  /// `:` after optional spaces, followed by a space, a flow indicator or the end of the line.
  private static func isKeyColon(_ s: [Unicode.Scalar], after start: Int) -> Bool {
    var k = start
    while k < s.count, s[k] == " " { k += 1 }
    guard k < s.count, s[k] == ":" else { return false }
    return k + 1 == s.count || [" ", ",", "}", "]"].contains(s[k + 1])
  }

  private static func previousNonSpace(_ s: [Unicode.Scalar], before j: Int) -> Unicode.Scalar? {
    var k = j - 1
    while k >= 0, s[k] == " " { k -= 1 }
    return k >= 0 ? s[k] : nil
  }
}
