import Foundation
import Testing

/// `opsview attach NAME --record FILE` over the example: a read-only run refuses the keys, pausing
/// stops the view while the program runs on, time travel works over what was received, and when the
/// program restarts the board follows it to its new run; the recording replays and exports.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the attach test"))
struct AttachFollowEndToEndTests {
  private func eventually(_ condition: () -> Bool) -> Bool {
    AttachEndToEndTests.eventually(condition)
  }

  @Test func followsTheProgramAcrossARestartAndRecordsWhatItSaw() throws {
    let (binary, example, runtime) = try AttachEndToEndTests.setUp()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let firstLog = runtime + "/first.log"
    let secondLog = runtime + "/second.log"
    let recording = runtime + "/photos.jsonl"
    let environment = ["XDG_RUNTIME_DIR": runtime]

    // The first run does not allow steering.
    let first = try ChildProcess(
      [example, "--read-only"], environment: environment, outputPath: firstLog)
    defer { first.stop(SIGKILL) }
    let started = eventually { AttachEndToEndTests.read(firstLog).contains("probe at") }
    try #require(started, "log:\n\(AttachEndToEndTests.read(firstLog))")

    let board = try TmuxSession(
      width: 120, height: 40,
      command: TmuxSession.wrapped(
        binary, ["attach", "photos", "--record", recording], environment: environment))
    func screen() -> String { board.capture() }
    try #require(board.waitFor("read-only", timeout: .seconds(30)), "screen:\n\(screen())")
    #expect(board.waitFor("download photo1-1", timeout: .seconds(30)), "screen:\n\(screen())")

    // s is refused on the board and never reaches the program's queue.
    try board.send("s")
    #expect(board.waitFor("read-only: the program did not enable control"), "screen:\n\(screen())")
    #expect(!AttachEndToEndTests.read(firstLog).contains("downloads suspended"))

    // Space pauses the view; the program runs on (it goes on showing photos).
    try board.send("Space")
    #expect(board.waitFor("view paused, program running"), "screen:\n\(screen())")
    let shownBefore = AttachEndToEndTests.read(firstLog).components(separatedBy: "showing").count
    #expect(
      eventually {
        AttachEndToEndTests.read(firstLog).components(separatedBy: "showing").count > shownBefore
      }, "the program stopped while the view was paused")
    // Its events wait to be shown.
    #expect(board.waitFor("to show"), "screen:\n\(screen())")
    // Time travel over the events received.
    try board.send("Left")
    #expect(board.waitFor("◀ past"), "screen:\n\(screen())")
    try board.send("Space")
    #expect(board.waitFor("▶ playing"), "screen:\n\(screen())")

    // The program exits: the board keeps its last state and says so, waiting for a new run.
    #expect(first.stop(SIGTERM, timeout: .seconds(30)))
    #expect(
      board.waitFor("disconnected, waiting for photos to restart", timeout: .seconds(30)),
      "screen:\n\(screen())")
    #expect(screen().contains("download photo1-1"), "the last state is kept:\n\(screen())")

    // It starts again (a new pid, a new socket): the board follows it to the new run.
    let second = try ChildProcess([example], environment: environment, outputPath: secondLog)
    defer { second.stop(SIGKILL) }
    #expect(
      board.waitFor("reconnected: run 2, pid \(second.pid)", timeout: .seconds(30)),
      "screen:\n\(screen())")
    #expect(board.waitFor("download photo1-1", timeout: .seconds(30)), "screen:\n\(screen())")
    // This run allows steering.
    try board.send("s")
    #expect(
      eventually { AttachEndToEndTests.read(secondLog).contains("photos: downloads suspended") },
      "log:\n\(AttachEndToEndTests.read(secondLog))")
    // The board heard of it (so the recording has it) before quitting.
    #expect(board.waitFor("‖ suspended", timeout: .seconds(30)), "screen:\n\(screen())")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(30)), "screen:\n\(screen())")

    // One recording a run, each in the recording format, each readable by trace and export.
    let firstRecording = AttachEndToEndTests.read(recording)
    #expect(firstRecording.hasPrefix("{\"format\":\"opsview-recording\""))
    #expect(firstRecording.contains("\"queue\":\"downloads\""))
    let secondRecording = AttachEndToEndTests.read(runtime + "/photos-run2.jsonl")
    #expect(secondRecording.contains("\"command\":\"suspend\""), "\(secondRecording.prefix(500))")
    let trace = try Spawn.run([binary, "trace", recording])
    #expect(trace.status == 0)
    #expect(trace.output.contains("download photo1-1"), "\(trace.output.prefix(500))")
    let export = try Spawn.run([binary, "export", recording, "--format", "mermaid"])
    #expect(export.status == 0)
    #expect(export.output.contains("download photo1-1"), "\(export.output.prefix(500))")

    // And it replays on the board.
    let replay = try TmuxSession(
      width: 120, height: 40, command: TmuxSession.wrapped(binary, ["replay", recording]))
    #expect(replay.waitFor("recording", timeout: .seconds(30)), "screen:\n\(replay.capture())")
    #expect(
      replay.waitFor("download photo1-1", timeout: .seconds(30)), "screen:\n\(replay.capture())")
    try replay.send("q")
    #expect(replay.waitFor("exit: 0", timeout: .seconds(30)), "screen:\n\(replay.capture())")
  }
}
