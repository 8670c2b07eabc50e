/// Word wrapping for notes, help and details. Line breaks in the text are kept; a wrapped line of a
/// list item (`- `) or an indented line continues under its text.
enum TextWrap {
  /// Joins hard-wrapped source lines into paragraphs (as Markdown does): a blank line separates
  /// paragraphs, a line starting with `- ` or `* ` starts a list item, anything else continues the line
  /// before it.
  static func reflow(_ text: String) -> String {
    var out: [String] = []
    var previousBlank = true
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = raw.drop { $0 == " " }
      if trimmed.isEmpty {
        out.append("")
        previousBlank = true
        continue
      }
      let item = trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || trimmed.hasPrefix("• ")
      if previousBlank || item || out.isEmpty {
        out.append(String(raw))
      } else {
        out[out.count - 1] += " " + trimmed
      }
      previousBlank = false
    }
    while out.last == "" { out.removeLast() }
    return out.joined(separator: "\n")
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var out: [String] = []
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(raw)
      let indentCount = line.prefix { $0 == " " }.count
      var hanging = indentCount
      let body = line.dropFirst(indentCount)
      if body.hasPrefix("- ") || body.hasPrefix("* ") || body.hasPrefix("• ") { hanging += 2 }
      let continuation = String(repeating: " ", count: min(hanging, width / 2))
      var current = String(repeating: " ", count: min(indentCount, width / 2))
      var currentHasWord = false
      for word in body.split(separator: " ", omittingEmptySubsequences: true) {
        var w = Substring(word)
        let candidate = currentHasWord ? current.count + 1 + w.count : current.count + w.count
        if candidate <= width {
          current += (currentHasWord ? " " : "") + w
          currentHasWord = true
          continue
        }
        if currentHasWord {
          out.append(current)
          current = continuation
        }
        // A word longer than the line is cut.
        while current.count + w.count > width {
          let room = max(1, width - current.count)
          out.append(current + w.prefix(room))
          w = w.dropFirst(room)
          current = continuation
        }
        current += w
        currentHasWord = !w.isEmpty
      }
      out.append(currentHasWord ? current : "")
    }
    return out
  }

  /// The words inside Markdown `code` spans, so they can be drawn in bold once the backticks are gone.
  static func codeSpans(_ text: String) -> Set<String> {
    var words: Set<String> = []
    for (i, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
    where i % 2 == 1 {
      for w in part.split(separator: " ") { words.insert(String(w)) }
    }
    return words
  }
}
