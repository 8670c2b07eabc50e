import Testing

@testable import OpsInput

/// One policy for names and for what reaches a terminal or a handout.
@Suite struct TextPolicyTests {
  @Test(
    arguments: [
      ("download", nil),
      ("résumé 2", nil),
      ("👩‍💻 coder", nil),
      ("❤️", nil),
      ("", TextPolicy.Problem.blank),
      ("   ", .blank),
      ("\u{200B}", .invisible("\u{200B}")),
      ("a\u{200B}", .invisible("\u{200B}")),
      ("a\u{2060}b", .invisible("\u{2060}")),
      ("soft\u{AD}hyphen", .invisible("\u{AD}")),
      (" a", .edgeSpace),
      ("a\u{3000}", .edgeSpace),
      ("a\u{202E}b", .bidirectional("\u{202E}")),
      ("a\u{2028}b", .separator("\u{2028}")),
      ("a\u{1B}[2J", .control("\u{1B}")),
      ("a\u{9B}1m", .control("\u{9B}")),
      ("a\nb", .control("\n")),
    ] as [(String, TextPolicy.Problem?)])
  func names(_ name: String, _ expected: TextPolicy.Problem?) {
    #expect(TextPolicy.nameProblem(name) == expected, "\(name.debugDescription)")
  }

  @Test func aLongNameIsRefusedWithItsLength() {
    let name = String(repeating: "x", count: 10_000_000)
    #expect(TextPolicy.nameProblem(name) == .tooLong(10_000_000))
    #expect(TextPolicy.nameProblem(String(repeating: "x", count: 256)) == nil)
  }

  @Test func notesKeepNewlinesAndTabsButNothingElse() {
    #expect(TextPolicy.notesProblem("a\n\tb") == nil)
    #expect(TextPolicy.notesProblem("a\u{1B}]0;PWNED\u{7}") == .control("\u{1B}"))
    #expect(TextPolicy.notesProblem("a\u{2029}") == .separator("\u{2029}"))
    #expect(TextPolicy.lineProblem("a\tb") == .control("\t"))
  }

  @Test func escapingMakesEveryActingCharacterVisible() {
    #expect(TextPolicy.escaped("x\u{1B}[2Jy\u{7}") == "x\\e[2Jy\\a")
    #expect(TextPolicy.escaped("a\u{9B}b") == "a\\x9Bb")
    #expect(TextPolicy.escaped("evil\u{202E}txt.exe") == "evil\\u202Etxt.exe")
    #expect(TextPolicy.escaped("a\nb", keepNewlines: false) == "a\\nb")
    #expect(TextPolicy.escaped("a\nb") == "a\nb")
    #expect(TextPolicy.escaped("plain ünïcödé 👩‍💻") == "plain ünïcödé 👩‍💻")
  }

  @Test func sanitizedBytesKeepLayoutAndEscapeTheRest() {
    let clean = Array("a\tb\r\nc ü\n".utf8)
    #expect(TextPolicy.sanitized(clean) == clean)
    let dirty = Array("# t\u{1B}]0;PWNED\u{7}\n\u{202E}x\n".utf8)
    #expect(
      String(decoding: TextPolicy.sanitized(dirty), as: UTF8.self)
        == "# t\\e]0;PWNED\\a\n\\u202Ex\n")
  }
}
