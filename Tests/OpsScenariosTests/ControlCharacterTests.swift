import Testing

@testable import OpsScenarios

/// Control characters written as escapes would reach the terminal whenever a name is printed: they are
/// refused at load time, each at the place of its value.
@Suite struct ControlCharacterTests {
  @Test func escapesInNamesAndOneLineFieldsAreRefusedWithTheirPlace() {
    let yaml = #"""
      scenario: "x\e[2Jy"
      title: "t\e]0;title\a"
      queues: [{name: "q\x7f"}]
      operations:
        - {name: "a\x9b1m", work: 1}
        - {name: b, fails: "line1\nline2"}
        - {name: c, fails: "ok\e[31m", conditions: [{mutuallyExclusive: "m\x00"}]}
        - {name: d, conditions: [{name: "n\t", result: failed, error: "e\x85"}]}
      actions:
        - {at: 1, cancel: "c\e"}
      """#
    let found = problems(yaml).map { "\($0.line!):\($0.column!) \($0.message)" }
    let tail = "text in a scenario cannot contain control characters"
    #expect(
      found == [
        "1:11 control character U+001B in a scenario id at scenario: \(tail)",
        "2:8 control character U+001B in a title at title: \(tail)",
        "3:17 control character U+007F in a queue name at queues[0].name: \(tail)",
        "5:12 control character U+009B in an operation name at operations[0].name: \(tail)",
        "6:22 expected an error message on one line at operations[1].fails",
        "7:22 control character U+001B in an error message at operations[2].fails: \(tail)",
        "7:67 control character U+0000 in a category name at operations[2].conditions[0].mutuallyExclusive: \(tail)",
        "8:35 control character U+0009 in a condition name at operations[3].conditions[0].name: \(tail)",
        "8:65 expected an error message on one line at operations[3].conditions[0].error",
        "10:21 control character U+001B in an operation name at actions[0].cancel: \(tail)",
      ], "\(found.joined(separator: "\n"))")
  }

  @Test func notesKeepNewlinesAndTabsButNotEscapes() throws {
    let ok = try parseScenario("notes: \"one\\n\\ttwo\"\noperations: [{name: a}]\n")
    #expect(ok.notes == "one\n\ttwo")
    let found = problems("notes: \"bell\\a\"\noperations: [{name: a}]\n")
    #expect(
      found.map(\.message) == [
        "control character U+0007 in text at notes: text in a scenario cannot contain control "
          + "characters other than newlines and tabs"
      ])
  }

  @Test func ordinaryUnicodeIsNotAControlCharacter() throws {
    let s = try parseScenario("operations: [{name: \"下载 📦\", fails: \"délai dépassé\"}]\n")
    #expect(s.operations.map(\.spec.name) == ["下载 📦"])
  }
}
