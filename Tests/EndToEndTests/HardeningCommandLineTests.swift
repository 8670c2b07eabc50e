import Foundation
import Testing

/// What the command line does with hostile or careless input: numbers out of range, control
/// characters in a scenario, scenarios that can never finish.
@Suite struct HardeningCommandLineTests {
  /// Bytes that would act on a terminal: ESC, BEL, CSI (C1, as UTF-8), DEL.
  static func hasRawControls(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n") || ($0.value >= 0x7F && $0.value <= 0x9F)
    }
  }

  @Test(arguments: ["inf", "1e13", "-1", "nan"])
  func untilOutOfRangeIsAUsageErrorWithItsBounds(_ value: String) throws {
    let r = try opsview(["trace", "tour", "--until", value])
    #expect(r.status == 2)
    #expect(r.err.contains("--until must be a number of seconds from 0 to 1000000000, found "))
    #expect(!r.err.contains("Fatal error"))
    #expect(r.out.isEmpty)
  }

  @Test func untilInRangeStillWorks() throws {
    let r = try opsview(["trace", "tour", "--until", "1e9"])
    #expect(r.status == 0)
    #expect(r.out.contains("# stopped at 1000000000.000s"))
  }

  @Test(arguments: [("0", "0"), ("-1", "-1"), ("1001", "1001"), ("inf", "inf"), ("nan", "nan")])
  func speedOutOfRangeStatesTheRealBounds(_ value: String, _ shown: String) throws {
    let r = try opsview(["play", "tour", "--speed", value])
    #expect(r.status == 2)
    #expect(r.err.contains("--speed must be greater than 0 and at most 1000, found \(shown)"))
    #expect(!r.err.contains("Missing value"))
  }

  @Test func controlCharactersAreRefusedAndNeverPrintedRaw() throws {
    let path = try temporaryFile(
      "inject.yaml",
      #"""
      scenario: "x\e[2Jy"
      title: "t\e]0;pwned\a"
      operations:
        - {name: "a\x9b1m", work: 1}
        - {name: b, fails: "line1\nline2"}
        - {name: c, fails: "ok\e[31m"}
      "key\e[2J": 1
      """#)
    for command in [["check", path], ["trace", path], ["trace", path, "--format", "jsonl"]] {
      let r = try opsview(command)
      #expect(r.status == 1)
      let all = r.out + r.err
      #expect(!Self.hasRawControls(all), "\(command): \(all.debugDescription)")
      #expect(all.contains("inject.yaml:1:11: error: control character U+001B in a scenario id"))
      #expect(
        all.contains("inject.yaml:4:12: error: control character U+009B in an operation name"))
      #expect(all.contains("inject.yaml:5:22: error: expected an error message on one line"))
      #expect(all.contains(#"unknown key 'key\e[2J' at the top level"#))
    }
  }

  @Test func aPathWithControlCharactersIsEscapedToo() throws {
    let r = try opsview(["check", "/nonexistent/\u{1B}[2Jevil.yaml"])
    #expect(r.status == 1)
    #expect(!Self.hasRawControls(r.out + r.err))
    #expect(r.out.contains(#"/nonexistent/\e[2Jevil.yaml: error:"#))
  }

  @Test func groupsThatCanNeverFinishAreAWarningNotAnError() throws {
    let path = try temporaryFile(
      "group-deadlock.yaml",
      "operations:\n  - {name: g, children: [c], dependencies: [c]}\n  - {name: c, work: 1}\n")
    let r = try opsview(["check", path])
    #expect(r.status == 0)
    #expect(
      r.out.contains(
        "group-deadlock.yaml: warning: 'g' and 'c' can never finish: 'g' waits for 'c' to finish; "
          + "'c' is added only when its group 'g' starts"))
    #expect(
      r.out.contains(
        "group-deadlock.yaml: ok (1 queue, 2 operations, 0 actions, 0 moments, 0 claims hold)"))
  }

  @Test func aSymbolicLinkLoopIsCalledWhatItIs() throws {
    let loop = try temporaryFile("loop-target.yaml", "")
    let dir = (loop as NSString).deletingLastPathComponent
    let link = dir + "/loop"
    try? FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "loop")
    // By bare name from its directory, and by path.
    for (argument, cwd) in [("loop", dir), (link, "/")] {
      let r = try opsview(["check", argument], cwd: cwd)
      #expect(r.status == 1)
      #expect(
        r.out.contains(
          "\(argument): error: is a symbolic link loop (too many levels of symbolic links)"),
        "\(r.out)")
    }
  }
}
