import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `script` with bash (the built `opsview` is `$OPSVIEW`), standard error joined to standard
/// output, and gives up after `timeout` seconds (`timeout` kills it: status 124).
func bash(_ script: String, timeout: Int = 60) throws -> Spawn.Result {
  let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
  return try Spawn.run([
    "/usr/bin/env", "OPSVIEW=\(binary)", "/usr/bin/timeout", "-k", "5", "\(timeout)", "/bin/bash",
    "-c", "cd \"$0\" && { \(script) ; } 2>&1", scratchDirectory.path,
  ])
}

/// The first events of the dependencies scenario, as `trace --format jsonl` prints them.
enum SampleEvents {
  static let queues = [
    #"{"seq":1,"time":0,"type":"queueAdded","queue":"network","maxConcurrent":2,"suspended":false,"qos":"utility"}"#,
    #"{"seq":2,"time":0,"type":"queueAdded","queue":"cpu","maxConcurrent":2,"suspended":false,"qos":"userInitiated"}"#,
  ]
  static func added(_ seq: Int, _ op: String = "download") -> String {
    #"{"seq":\#(seq),"time":0,"type":"operationAdded","operation":"\#(op)","queue":"network","priority":"normal","qos":"default","kind":"plain","dependencies":[],"conditions":[],"exclusivity":[],"work":4}"#
  }
  static func state(
    _ seq: Int, _ from: String, _ to: String, time: String = "0", slot: String = "1",
    op: String = "download"
  ) -> String {
    let cause =
      switch to {
      case "pending": #"{"kind":"added","queue":"network"}"#
      case "ready": #"{"kind":"noDependencies"}"#
      case "executing": #"{"kind":"started","queue":"network","slot":\#(slot),"limit":2}"#
      case "finishing": #"{"kind":"workReturned"}"#
      default: #"{"kind":"observersNotified"}"#
      }
    return
      #"{"seq":\#(seq),"time":\#(time),"type":"state","operation":"\#(op)","from":"\#(from)","to":"\#(to)","cause":\#(cause)}"#
  }
  /// A sound start: two queues, download added, pending, ready (5 lines).
  static let start =
    queues + [added(3), state(4, "initialized", "pending"), state(5, "pending", "ready")]
}

@Suite struct UntrustedInputEndToEndTests {
  typealias E = SampleEvents

  /// Recordings whose events could not have come from the engine: each would crash a fold (a
  /// negative count in the queues pane, an index out of range in time travel) or a time
  /// formatter, or pass unnoticed. `replay`, `trace` and every export refuse
  /// them with the line and the reason, exit 1, and never crash.
  static let inconsistent: [String: ([String], String)] = [
    "repeated": (
      E.start + [
        E.state(5, "pending", "ready").replacingOccurrences(of: #""seq":5"#, with: #""seq":6"#)
      ],
      "inconsistent.jsonl:6: 'download' moves from pending to ready, but it is ready"
    ),
    "finished-to-executing": (
      E.start + [
        E.state(6, "ready", "executing"), E.state(7, "executing", "finishing"),
        E.state(8, "finishing", "finished"), E.state(9, "finished", "executing"),
      ], "inconsistent.jsonl:9: 'download' cannot move from finished to executing"
    ),
    "duplicated-seq": (
      E.start + [E.state(5, "ready", "executing")],
      "inconsistent.jsonl:6: event 5 again (or out of order) where event 6 was due"
    ),
    "shuffled": (
      [E.start[1], E.start[0]] + Array(E.start[2...]),
      "inconsistent.jsonl:1: event 2 where event 1 was due"
    ),
    "huge-slot": (
      E.start + [E.state(6, "ready", "executing", slot: "9223372036854775807")],
      "inconsistent.jsonl:6: a start in slot 9223372036854775807 with 1 operations added"
    ),
    "backwards": (
      E.start + [E.state(6, "ready", "pending")],
      "inconsistent.jsonl:6: 'download' cannot move from ready to pending"
    ),
    "unknown-operation": (
      E.start + [E.state(6, "pending", "ready", op: "ghost")],
      "inconsistent.jsonl:6: operation 'ghost' was never added"
    ),
    "huge-time": (
      E.start + [E.state(6, "ready", "executing", time: "9.3e15")],
      "inconsistent.jsonl:6: its time 9.3e+15 s is past the end of the clock (1000000000 s)"
    ),
    "time-backwards": (
      E.start + [
        E.state(6, "ready", "executing", time: "1000000000"),
        E.state(7, "executing", "finishing", time: "1"),
      ],
      "inconsistent.jsonl:7: its time 1 s is before the previous event's 1000000000 s"
    ),
  ]

  @Test(arguments: inconsistent.keys.sorted())
  func anInconsistentRecordingIsRefusedByEveryReader(_ what: String) throws {
    let (lines, expected) = try #require(Self.inconsistent[what])
    let directory = scratchDirectory.appendingPathComponent(what)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("inconsistent.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    for command in [
      ["trace", path], ["trace", path, "--format", "jsonl"], ["replay", path],
      ["export", path, "--format", "dot"], ["export", path, "--format", "perfetto"],
      ["export", path, "--format", "markdown"],
    ] {
      let r = try opsview(command)
      #expect(r.status == 1, "\(what) \(command): \(r.err)")
      #expect(r.err.contains(expected), "\(what) \(command): \(r.err)")
      #expect(!r.err.contains("Fatal error"), "\(what) \(command)")
      #expect(r.out.isEmpty, "\(what) \(command): \(r.out)")
    }
  }

  @Test func theSameEventsOnStandardInputAreRefusedToo() throws {
    let path = try temporaryFile(
      "stdin-repeated.jsonl", (E.start + [E.state(6, "pending", "ready")]).joined(separator: "\n"))
    let r = try bash(
      #""$OPSVIEW" trace - < "$1"; echo "status $?""#.replacingOccurrences(of: "$1", with: path))
    #expect(
      r.output.contains(
        "standard input:6: 'download' moves from pending to ready, but it is ready"), "\(r.output)")
    #expect(r.output.hasSuffix("status 1\n"), "\(r.output)")
  }

  // MARK: - Writing

  @Test(arguments: [
    ["trace", "tour"], ["trace", "tour", "--format", "jsonl"],
    ["export", "tour", "--format", "dot"],
    ["export", "stress", "--format", "svg"], ["check", "tour"], ["list"], ["code", "tour"],
    ["code", "stress"],
  ])
  func aFullDiskIsAMessageAndExitOne(_ arguments: [String]) throws {
    let r = try bash(
      #""$OPSVIEW" \#(arguments.joined(separator: " ")) > /dev/full; echo "status $?""#)
    #expect(
      r.output.contains("opsview: cannot write to standard output: No space left on device"),
      "\(r.output)")
    #expect(r.output.hasSuffix("status 1\n"), "\(r.output)")
    #expect(!r.output.contains("Fatal error"), "\(r.output)")
  }

  @Test(arguments: [
    ["trace", "stress"], ["trace", "stress", "--format", "jsonl"],
    ["export", "stress", "--format", "svg"],
  ])
  func aClosedPipeEndsQuietlyWithSIGPIPEIgnored(_ arguments: [String]) throws {
    let r = try bash(
      #"trap "" PIPE; "$OPSVIEW" \#(arguments.joined(separator: " ")) 2>err.txt | head -c 10 > /dev/null; echo "status ${PIPESTATUS[0]}"; cat err.txt"#
    )
    #expect(r.output.hasPrefix("status 0\n"), "\(r.output)")
    #expect(!r.output.contains("Broken pipe") && !r.output.contains("Fatal error"), "\(r.output)")
  }

  // MARK: - Standard input

  @Test func standardInputIsStreamedAndStopsAtTheFirstBadLine() throws {
    // `yes` never ends: reading it all first grew opsview to gigabytes, then crashed it.
    let r = try bash(
      #"yes '\#(E.queues[0])' | "$OPSVIEW" trace -; echo "status ${PIPESTATUS[1]}""#, timeout: 30)
    #expect(
      r.output.contains("standard input:2: event 1 again (or out of order) where event 2 was due"),
      "\(r.output)")
    #expect(r.output.hasSuffix("status 1\n"), "\(r.output)")
  }

  @Test func aStalledPipeSaysWhatIsAwaited() throws {
    let path = try temporaryFile("stalled.jsonl", E.start.joined(separator: "\n") + "\n")
    let r = try bash(#"{ sleep 3; cat "\#(path)"; } | "$OPSVIEW" trace -; echo "status $?""#)
    #expect(
      r.output.contains("opsview: waiting for a scenario or a recording on standard input"),
      "\(r.output)")
    #expect(r.output.contains("# stdin: stdin"), "\(r.output)")
    #expect(r.output.hasSuffix("status 0\n"), "\(r.output)")
  }

  // MARK: - Escape codes

  /// A recording's header and events follow the scenario loader's rules: the title that cleared
  /// the screen and retitled the window, notes the handout copied with ESC and BEL, a raw CSI
  /// (U+009B) and a bidirectional override are refused with where and why; nothing reaches the
  /// terminal raw.
  static let hostileText: [String: (String, String)] = [
    "title": (
      #"{"format":"opsview-recording","version":2,"title":"\u001b[2J\u001b]0;PWNED\u0007"}"#,
      "hostile.jsonl:1: the header's control character U+001B in title"
    ),
    "notes": (
      #"{"format":"opsview-recording","version":2,"notes":"ok\n\u001b]0;PWNED\u0007"}"#,
      "hostile.jsonl:1: the header's control character U+001B in notes"
    ),
    "scenario": (
      #"{"format":"opsview-recording","version":2,"scenario":"tour\u202e"}"#,
      "hostile.jsonl:1: the header's bidirectional control U+202E in scenario name"
    ),
    "csi": (
      SampleEvents.queues[0].replacingOccurrences(of: "network", with: "net\u{9B}2Jwork"),
      "hostile.jsonl:1: a control character (U+009B) in the line"
    ),
    "bidi": (
      SampleEvents.queues[0].replacingOccurrences(of: "network", with: "net\u{202E}work"),
      "hostile.jsonl:1: bidirectional control U+202E in a queue name"
    ),
    "look-alike": (
      SampleEvents.queues[0].replacingOccurrences(of: "network", with: "network\u{200B}"),
      // The quote shows where it is: escaped, not printed as nothing.
      "hostile.jsonl:1: invisible character U+200B in a queue name: names that differ only by it "
        + "look the same ('network\\u200B')"
    ),
    "blank": (
      SampleEvents.queues[0].replacingOccurrences(of: "network", with: " "),
      "hostile.jsonl:1: a queue name cannot be blank"
    ),
  ]

  @Test(arguments: hostileText.keys.sorted())
  func hostileTextInARecordingIsRefusedAndNeverPrintedRaw(_ what: String) throws {
    let (first, expected) = try #require(Self.hostileText[what])
    let directory = scratchDirectory.appendingPathComponent("text-\(what)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("hostile.jsonl").path
    let events =
      first.hasPrefix(#"{"format""#) ? [first] + E.start : [first] + Array(E.start.dropFirst())
    try (events.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    for command in [
      ["trace", path], ["replay", path], ["export", path, "--format", "markdown"],
      ["export", path, "--format", "svg"],
    ] {
      let r = try opsview(command)
      #expect(r.status == 1, "\(what) \(command): \(r.err)")
      #expect(r.err.contains(expected), "\(what) \(command): \(r.err)")
      #expect(!Self.hasActingCharacters(r.out + r.err), "\(what) \(command)")
    }
  }

  /// Controls, DEL, C1, bidirectional controls and line separators.
  static func hasActingCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n") || ($0.value >= 0x7F && $0.value <= 0x9F)
        || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains($0.value)
        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
    }
  }

  @Test func aRecordingsFileNameIsPrintedEscaped() throws {
    let directory = scratchDirectory.appendingPathComponent("named")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("\u{1B}]0;PWNED\u{7}\u{202E}.jsonl").path
    try (E.start.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let r = try opsview(["trace", path])
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.hasPrefix(#"# \e]0;PWNED\a\u202E: \e]0;PWNED\a\u202E"#), "\(r.out)")
    #expect(!Self.hasActingCharacters(r.out + r.err))
    let missing = try opsview(["trace", directory.appendingPathComponent("\u{1B}[2J.jsonl").path])
    #expect(missing.status == 1)
    #expect(!Self.hasActingCharacters(missing.out + missing.err), "\(missing.err.debugDescription)")
  }

  /// The scenario loader refuses what the recording reader refuses.
  @Test(arguments: [
    ("a\u{202E}b", "bidirectional control U+202E in an operation name at operations[0].name"),
    ("a\u{200B}", "invisible character U+200B in an operation name at operations[0].name"),
    (" ", "an operation name at operations[0].name cannot be blank"),
  ])
  func theLoaderRefusesTheSameNames(_ name: String, _ expected: String) throws {
    let path = try temporaryFile(
      "names-\(name.unicodeScalars.map { String($0.value) }.joined(separator: "-")).yaml",
      "operations:\n  - {name: \"\(name)\", work: 1}\n  - {name: a, work: 1}\n")
    for command in [["check", path], ["trace", path], ["export", path, "--format", "dot"]] {
      let r = try opsview(command)
      #expect(r.status == 1, "\(command)")
      #expect((r.out + r.err).contains(expected), "\(command): \(r.out + r.err)")
      #expect(!Self.hasActingCharacters(r.out + r.err), "\(command)")
    }
  }

  /// YAML readers count U+2028 as a line break and editors do not: every line reported after one
  /// was off by one.
  @Test func aLineSeparatorIsRefusedWhereItIs() throws {
    let path = try temporaryFile(
      "separator.yaml", "notes: \"a\u{2028}b\"\noperations:\n  - {name: a, work: -1}\n")
    let r = try opsview(["check", path])
    #expect(r.status == 1)
    #expect(
      r.out.contains("separator.yaml:1:10: error: a line separator (U+2028 or U+2029)"), "\(r.out)")
  }
}
