import Foundation
import Testing

/// `play --record`, `--save-actions`, `replay` and `trace` of a recording, through the real binary.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the record/replay tests"))
struct RecordReplayEndToEndTests {
  private func start(_ arguments: [String]) throws -> TmuxSession {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    return try TmuxSession(
      width: 120, height: 40, command: TmuxSession.wrapped(binary, arguments))
  }

  @Test func aRecordedRunWithKeysReplaysAndTracesAsItRan() throws {
    let dir = try temporaryFile("keep", "")
    let recording = dir + ".rec.jsonl"
    let actions = dir + ".demo.yaml"
    let play = try start([
      "play", "tour", "--paused", "--record", recording, "--save-actions", actions,
    ])
    #expect(play.waitFor("paused"))
    try play.send(".", ".", ".", ".")  // a few events, then suspend network from the keyboard
    try play.send("s")
    #expect(play.waitFor("network suspended"))
    try play.send(">", ">", ">", ">", ">", ">", " ")
    // The tour stops at its teaching moments: m plays on to the next one, until the run is done.
    var done = false
    for _ in 0..<15 where !done {
      done = play.waitFor("■", timeout: .seconds(2))
      if !done { try play.send("m") }
    }
    #expect(done, "screen:\n\(play.capture())")
    try play.send("q")
    #expect(play.waitFor("exit: 0"), "screen:\n\(play.capture())")

    // The recording: a header naming the format and version, then every event, the key included.
    let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
    #expect(lines.first?.contains(#""format":"opsview-recording""#) == true)
    #expect(lines.first?.contains(#""version":2"#) == true)
    #expect(lines.contains { $0.contains(#""source":"key""#) && $0.contains("suspend") })

    // trace of the recording prints the same events the run published.
    let traced = try opsview(["trace", recording, "--format", "jsonl"])
    #expect(traced.status == 0, "\(traced.err)")
    #expect(traced.out.split(separator: "\n") == Array(lines.dropFirst()))

    // The saved actions are a scenario whose run makes the same key command by itself. The key
    // (network suspended at once) makes some of the tour's captions untrue: check says which, and
    // only those.
    let check = try opsview(["check", actions])
    let problems = check.out.split(separator: "\n")
    #expect(!problems.isEmpty && problems.allSatisfy { $0.contains(" claims ") }, "\(check.out)")
    // The moments still name the tour's own actions: moment 2 is still the cancel of prefetch.
    let saved = try String(contentsOfFile: actions, encoding: .utf8)
    #expect(saved.contains("actions:\n  - {at: 4, cancel: \"prefetch\"}\n"), "\(saved)")
    #expect(
      try String(contentsOfFile: actions, encoding: .utf8).contains("suspend: \"network\"}   # key")
    )

    let replay = try start(["replay", recording, "--paused"])
    #expect(replay.waitFor("recording:"), "screen:\n\(replay.capture())")
    try replay.send("s")
    #expect(replay.waitFor("a recording cannot be steered"))
    try replay.send("q")
    #expect(replay.waitFor("exit: 0"))
  }

  @Test func hostileRecordingsExitOneWithAMessage() throws {
    let future = try temporaryFile(
      "future.jsonl", #"{"format":"opsview-recording","version":9}"# + "\n")
    let garbage = try temporaryFile("garbage.jsonl", "\u{1b}[2J not json\n")
    for (file, words) in [(future, "version 9"), (garbage, "control character")] {
      for command in [["replay", file], ["trace", file]] {
        let r = try opsview(command)
        #expect(r.status == 1, "\(command)")
        #expect(r.err.contains(words), "\(command): \(r.err)")
      }
    }
  }
}
