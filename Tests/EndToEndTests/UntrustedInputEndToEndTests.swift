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

  /// Recordings whose events could not have come from the engine: each used to crash the board
  /// (a negative count in the queues pane, an index out of range in time travel), the trace's or
  /// an export's time formatting, or pass unnoticed. Now `replay`, `trace` and every export refuse
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
    ["export", "stress", "--format", "svg"], ["check", "tour"], ["list"],
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
      r.output.contains("opsview: waiting for the recording on standard input"), "\(r.output)")
    #expect(r.output.contains("# stdin: stdin"), "\(r.output)")
    #expect(r.output.hasSuffix("status 0\n"), "\(r.output)")
  }
}
