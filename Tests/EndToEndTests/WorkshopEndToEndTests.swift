import Foundation
import Testing

/// Workshop features on the real binary in tmux: the quiz, the presenter key at 80×24, and
/// `--watch` picking up edits. Waits are bounded polls of the screen, never timing assertions.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct WorkshopEndToEndTests {
  @Test func theQuizAsksAcceptsAnAnswerRevealsAndScores() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 100, height: 30,
      command: TmuxSession.wrapped(binary, ["play", "tour", "--paused", "--quiz"]))
    try #require(session.waitFor("quiz 0/0"), "screen:\n\(session.capture())")
    try session.send(".")
    let predicting = try #require(
      session.settled { $0.contains("Predict · score 0/0") }, "screen:\n\(session.capture())")
    #expect(predicting.contains("▸ 1"), "screen:\n\(predicting)")
    try session.send("Down", "Enter")
    let revealed = try #require(
      session.settled { $0.contains("Revealed · score") }, "screen:\n\(session.capture())")
    #expect(
      revealed.contains("✓ Right: ") || revealed.contains("✗ You said "), "screen:\n\(revealed)")
    #expect(
      revealed.contains("quiz 1/1") || revealed.contains("quiz 0/1"), "screen:\n\(revealed)")
    // Closing the reveal and stepping asks the next question.
    try session.send("Enter", ".")
    #expect(session.waitFor("Predict · score"), "screen:\n\(session.capture())")
    try session.send("Escape", "q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  @Test func pOpensThePresenterAt80x24AndSaysWhatTheLastKeyDid() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24, command: TmuxSession.wrapped(binary, ["play", "tour", "--paused"]))
    try #require(session.waitFor("─ Log"), "screen:\n\(session.capture())")
    try session.send("P")
    let presented = try #require(
      session.settled { $0.contains("State machine · download") }, "screen:\n\(session.capture())")
    #expect(!presented.contains("─ Log"), "screen:\n\(presented)")
    // download's queue is network: s suspends it, and the presenter says so in words.
    try session.send("s")
    #expect(
      session.waitFor(" s  network suspended: nothing new starts"),
      "screen:\n\(session.capture())")
    try session.send("P")
    #expect(session.waitFor("─ Log"), "screen:\n\(session.capture())")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  @Test func theHighContrastPresenterRunsUnderNoColor() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(
        binary, ["play", "lifecycle", "--paused", "--present", "--theme", "high-contrast"],
        environment: ["NO_COLOR": "1"]))
    try #require(session.waitFor("State machine"), "screen:\n\(session.capture())")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
    #expect(session.capture().contains("tty: restored"))
  }

  @Test func watchPicksUpAnEditShowsABrokenOneAndRecovers() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-e2e-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // The file a workshop starts from: `opsview new`'s starter.
    #expect(try opsview(["new", "lesson"], cwd: dir.path).status == 0)
    let path = dir.appendingPathComponent("lesson.yaml").path
    let starter = try String(contentsOfFile: path, encoding: .utf8)
    let session = try TmuxSession(
      width: 100, height: 30,
      command: TmuxSession.wrapped(binary, ["play", "--watch", path, "--paused"]))
    try #require(session.waitFor("lesson: one line"), "screen:\n\(session.capture())")

    let edited = starter.replacingOccurrences(of: "title: \"", with: "title: \"Edited ")
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(session.waitFor("Edited lesson"), "screen:\n\(session.capture())")

    try (edited + "\nqueues: [\n").write(toFile: path, atomically: true, encoding: .utf8)
    let broken = try #require(
      session.settled { $0.contains("The scenario file does not load") },
      "screen:\n\(session.capture())")
    #expect(broken.contains("lesson.yaml:"), "screen:\n\(broken)")

    try starter.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(
      session.waitUntil { !$0.contains("does not load") && $0.contains("lesson: one line") },
      "screen:\n\(session.capture())")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }
}
