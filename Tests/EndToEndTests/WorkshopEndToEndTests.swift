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
    // The file replaced by a FIFO: refused at once (reading it would wait for a writer and freeze
    // the board); the board keeps playing and quits.
    try FileManager.default.removeItem(atPath: path)
    try #require(mkfifo(path, 0o600) == 0)
    let fifo = try #require(
      session.settled { $0.contains("The scenario file does not load") },
      "screen:\n\(session.capture())")
    #expect(fifo.contains("is a FIFO"), "screen:\n\(fifo)")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  /// The rows inside the quiz's box, borders dropped.
  private func quizBox(_ screen: String) -> [Substring] {
    let lines = screen.split(separator: "\n")
    guard let top = lines.firstIndex(where: { $0.hasPrefix("┌─ Predict") }) else { return [] }
    return lines[(top + 1)...].prefix { !$0.hasPrefix("└") }.map { $0.dropFirst().dropLast() }
  }

  /// docs/WORKSHOP.md at the tour's third moment: select login and press s, in the presenter at
  /// 80×24: s acts there, and l then Esc comes back to the caption.
  @Test func atTheToursThirdMomentKeysActInThePresenterAndTheCaptionStays() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(
        binary, ["play", "tour", "--present", "--paused", "--speed", "20"]))
    try #require(session.waitFor("State machine"), "screen:\n\(session.capture())")
    for n in 1...3 {
      try session.send("m")
      try #require(session.waitFor("Moment \(n) of 4"), "screen:\n\(session.capture())")
    }
    var selected = false
    for _ in 0..<16 where !selected {
      try session.send("Down")
      selected = session.waitUntil(timeout: .seconds(2)) { $0.contains("State machine · login") }
    }
    #expect(selected, "screen:\n\(session.capture())")
    #expect(!session.capture().contains("works in the board view"))
    try session.send("s")
    let resumed = try #require(
      session.settled { $0.contains(" s  network resumed: nothing was waiting to start") },
      "screen:\n\(session.capture())")
    #expect(resumed.contains("Moment 3 of 4"), "screen:\n\(resumed)")
    // The caption's claim is no longer true of this run, and the board says so.
    #expect(
      resumed.contains("✗ network is suspended — no longer: it is running"),
      "screen:\n\(resumed)")
    try session.send("s")
    let suspended = try #require(
      session.settled { $0.contains(" s  network suspended: nothing new starts") },
      "screen:\n\(session.capture())")
    #expect(suspended.contains("Moment 3 of 4"), "screen:\n\(suspended)")
    // The effect wraps, never cut with an ellipsis.
    let words = suspended.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains("fetchAvatar and fetchComments keep running"), "screen:\n\(suspended)")
    // The log opened from the caption: Esc comes back to the caption over the presenter.
    try session.send("l")
    #expect(session.waitFor("Event log"), "screen:\n\(session.capture())")
    try session.send("Escape")
    let back = try #require(
      session.settled { $0.contains("Moment 3 of 4") }, "screen:\n\(session.capture())")
    #expect(back.contains("· initialized"), "screen:\n\(back)")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  /// A rehearsal at 60×16: three of four choices shown (the right one hidden) and `opsquiz 0/0`.
  @Test func theQuizFitsAt60x16WithEveryChoice() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 60, height: 16,
      command: TmuxSession.wrapped(binary, ["play", "tour", "--paused", "--quiz"]))
    try #require(session.waitFor("quiz 0/0"), "screen:\n\(session.capture())")
    try session.send(".")
    let asking = try #require(
      session.settled { $0.contains("Predict · score 0/0") }, "screen:\n\(session.capture())")
    let box = quizBox(asking)
    for n in 1...4 {
      #expect(box.contains { $0.contains(" \(n)  ") }, "choice \(n):\n\(asking)")
    }
    #expect(asking.contains("1-4"), "screen:\n\(asking)")
    #expect(asking.hasPrefix(" opsview │ "), "screen:\n\(asking)")
    try session.send("4")
    let revealed = try #require(
      session.settled { $0.contains("Revealed · score") }, "screen:\n\(session.capture())")
    #expect(revealed.hasPrefix(" opsview │ "), "screen:\n\(revealed)")
    #expect(!revealed.contains("opsquiz"), "screen:\n\(revealed)")
    try session.send("Escape", "q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  /// A rehearsal: below the minimum size the clock played on and keys acted, unseen.
  @Test func belowTheMinimumSizeTheClockHoldsAndKeysWait() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    // At half speed the tour's first moment (at 4s) is 8 real seconds away: room for a slow
    // machine to shrink the window before it.
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(binary, ["play", "tour", "--speed", "0.5"]))
    try #require(session.waitFor("▶ playing"), "screen:\n\(session.capture())")
    let before = Self.clock(session.capture())
    try #require(before < 4, "screen:\n\(session.capture())")
    try session.resize(width: 40, height: 12)
    try #require(session.waitFor("needs at least"), "screen:\n\(session.capture())")
    #expect(session.waitFor("keys wait"), "screen:\n\(session.capture())")
    try session.send("s")
    #expect(session.waitFor("'s' did nothing"), "screen:\n\(session.capture())")
    // Ten real seconds are five run seconds: a clock that ran would pass the first moment.
    Thread.sleep(forTimeInterval: 10)
    try session.resize(width: 80, height: 24)
    var back = ""
    #expect(
      session.waitUntil {
        back = $0
        return $0.contains(" opsview │")
      }, "screen:\n\(session.capture())")
    let after = Self.clock(back)
    #expect(
      after - before < 2, "the clock held while the window was small: \(before)s, then \(after)s")
    #expect(!back.contains("Moment 1 of 4"), "screen:\n\(back)")
    #expect(!back.contains("suspended"), "s waited: screen:\n\(back)")
    // Playing goes on as it was: on to the first moment.
    #expect(session.waitFor("Moment 1 of 4"), "screen:\n\(session.capture())")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }

  /// The run time in the header (`t 1.23s`); 99 when there is none.
  static func clock(_ screen: String) -> Double {
    let header = screen.split(separator: "\n").first ?? ""
    let words = header.split(separator: " ")
    guard let t = words.firstIndex(of: "t"), t + 1 < words.count else { return 99 }
    return Double(words[t + 1].dropLast()) ?? 99
  }
}
