import Foundation
import Testing

/// How the board is started for these tests, and what its header shows for that scenario.
/// WAITS FOR THE CLI: `opsview play <scenario>` wired to `TerminalApp.run` (lead, Sources/opsview).
private enum Play {
  static let arguments = ["play", "tour"]
  static let title = "Tour: a photo app"
}

private let noBinary: Comment =
  "opsview was not found beside the test bundle or under .build; run `swift build` first"

/// Without a terminal the board refuses cleanly. Needs no tmux.
@Suite struct TerminalRefusalTests {
  @Test func withoutATerminalItPointsAtTrace() throws {
    let binary = try #require(OpsviewBinary.path, noBinary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = Play.arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(stderr.contains("opsview trace"), "stderr: \(stderr)")
    #expect(!stdout.contains(0x1B), "no escape sequences may reach a non-terminal")
  }
}

/// The real binary in a private tmux server: the board appears, keys work, every way out restores
/// the terminal. The tests run one at a time so a slow machine is not made slower.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct BoardEndToEndTests {
  private func start(
    width: Int = 120, height: Int = 40, arguments: [String] = Play.arguments,
    environment: [String: String] = [:]
  ) throws -> TmuxSession {
    let binary = try #require(OpsviewBinary.path, noBinary)
    return try TmuxSession(
      width: width, height: height,
      command: TmuxSession.wrapped(binary, arguments, environment: environment))
  }

  /// The wrapper's report once the program has ended: its exit status and restored tty modes.
  private func expectEnded(
    _ session: TmuxSession, status: Int32, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let ended = session.waitFor("exit: \(status)")
    let screen = session.capture()
    #expect(ended, "screen:\n\(screen)", sourceLocation: sourceLocation)
    #expect(screen.contains("tty: restored"), "screen:\n\(screen)", sourceLocation: sourceLocation)
    // endwin left the alternate screen: the board is gone.
    #expect(!screen.contains(Play.title), "screen:\n\(screen)", sourceLocation: sourceLocation)
  }

  @Test func dumbTerminalPointsAtTraceAndLeavesTheTerminalAlone() throws {
    let session = try start(environment: ["TERM": "dumb"])
    #expect(session.waitFor("exit: 2"), "screen:\n\(session.capture())")
    let screen = session.capture()
    #expect(screen.contains("opsview trace"), "screen:\n\(screen)")
    #expect(screen.contains("tty: restored"), "screen:\n\(screen)")
  }

  @Test func boardAppearsAndQuitsWithQ() throws {
    let session = try start()
    #expect(
      session.waitUntil { $0.contains(Play.title) && $0.contains("help") },
      "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func spacePausesTheClock() throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("Space")
    try #require(session.waitFor("paused"), "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func resizingRelaysOutAndRecoversFromTooSmall() throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.resize(width: 40, height: 10)
    #expect(session.waitFor("needs at least"), "screen:\n\(session.capture())")
    try session.resize(width: 100, height: 30)
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    // Every row fits the new width: nothing drawn for the old size is left over.
    #expect(session.capture().split(separator: "\n").allSatisfy { $0.count <= 100 })
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func resizingWhilePausedRedrawsToo() throws {
    // Paused, the loop blocks on input with no timeout: the resize itself must wake it.
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("Space")
    try #require(session.waitFor("paused"), "screen:\n\(session.capture())")
    try session.resize(width: 40, height: 10)
    #expect(session.waitFor("needs at least"), "screen:\n\(session.capture())")
    try session.resize(width: 90, height: 30)
    #expect(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func engineKeysStepTimelineAndTimeTravel() throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    // s suspends the selected queue (network, the first).
    try session.send("s")
    #expect(session.waitFor("‖ suspended"), "screen:\n\(session.capture())")
    // + raises its limit: the status says so and the queue row shows the new limit.
    try session.send("+")
    #expect(session.waitFor("maxConcurrent 2 → 3"), "screen:\n\(session.capture())")
    #expect(session.capture().contains("/3"), "screen:\n\(session.capture())")
    // c cancels the selected operation.
    try session.send("c")
    #expect(session.waitFor("cancelled download"), "screen:\n\(session.capture())")
    // Paused, . shows one more event in the status line.
    try session.send("Space")
    try #require(session.waitFor("paused"), "screen:\n\(session.capture())")
    try session.send(".")
    #expect(session.waitFor("step: "), "screen:\n\(session.capture())")
    // t opens the timeline; ← goes back one event and the header says ◀ past.
    try session.send("t")
    #expect(session.waitFor("Timeline ·"), "screen:\n\(session.capture())")
    try session.send("Left")
    #expect(
      session.waitUntil { $0.split(separator: "\n").first?.contains("◀ past") == true },
      "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func helpOpensWithQuestionMarkAndEscapeClosesIt() throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("?")
    try #require(session.waitFor("Help"), "screen:\n\(session.capture())")
    try session.send("Escape")
    #expect(session.waitUntil { !$0.contains("Help ·") }, "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func ctrlCRestoresTheTerminal() throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("C-c")
    expectEnded(session, status: 128 + SIGINT)
  }

  /// Every signal that ends the board, SIGUSR1, SIGALRM and SIGPIPE included, leaves the terminal
  /// without the alternate screen and mouse tracking.
  @Test(arguments: [SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE])
  func aSignalRestoresTheTerminal(signal: Int32) throws {
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    #expect(session.alternateScreenAndMouse == (true, true))
    let board = try #require(session.waitForChild(), "the program under test did not start")
    #expect(kill(board, signal) == 0)
    expectEnded(session, status: 128 + signal)
    #expect(session.alternateScreenAndMouse == (false, false))
  }

  @Test func aSignalWhilePausedEndsItToo() throws {
    // Paused, the loop blocks on input with no timeout: the signal itself must wake it.
    let session = try start()
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("Space")
    try #require(session.waitFor("paused"), "screen:\n\(session.capture())")
    let board = try #require(session.waitForChild(), "the program under test did not start")
    #expect(kill(board, SIGTERM) == 0)
    expectEnded(session, status: 128 + SIGTERM)
  }

  @Test func helpOwnsTheKeysWhileOpen() throws {
    let session = try start(width: 80, height: 24, arguments: Play.arguments + ["--paused"])
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("?")
    try #require(session.waitFor("Help ·"), "screen:\n\(session.capture())")
    // s would suspend the selected queue on the board; under help it only says help is open.
    try session.send("s")
    let refused = try #require(
      session.settled { $0.contains("help is open") }, "screen:\n\(session.capture())")
    #expect(refused.contains("Help ·"), "screen:\n\(refused)")
    try session.send("End")
    try session.send("Escape")
    let board = try #require(
      session.settled { !$0.contains("Help ·") }, "screen:\n\(session.capture())")
    #expect(!board.contains("suspended"), "screen:\n\(board)")
    #expect(board.contains("› download"), "End moved the selection under help:\n\(board)")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func sortKeyShowsItsOrder() throws {
    let session = try start(arguments: Play.arguments + ["--paused"])
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("o")
    #expect(session.waitFor("by name ▲"), "screen:\n\(session.capture())")
    try session.send("O")
    #expect(session.waitFor("by name ▼"), "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func destructiveKeysAskYesOrNo() throws {
    let session = try start(arguments: Play.arguments + ["--paused"])
    try #require(session.waitFor(Play.title), "screen:\n\(session.capture())")
    try session.send("C")
    #expect(
      session.waitFor("cancel every unfinished operation of network"),
      "screen:\n\(session.capture())")
    try session.send("n")
    #expect(session.waitFor("not confirmed: nothing changed"), "screen:\n\(session.capture())")
    try session.send("C")
    try session.send("y")
    #expect(session.waitFor("cancelAll on network"), "screen:\n\(session.capture())")
    try session.send("r")
    #expect(session.waitFor("from the beginning"), "screen:\n\(session.capture())")
    try session.send("y")
    #expect(session.waitFor("restarted from the beginning"), "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func theWhyLineWrapsAt80x24() throws {
    let session = try start(width: 80, height: 24, arguments: ["play", "deadlock", "--paused"])
    try #require(session.waitFor("Deadlock"), "screen:\n\(session.capture())")
    // Paused at 0s the cycle is already known; parse, the first row, is selected.
    let screen = try #require(
      session.settled { $0.contains("why parse:") }, "screen:\n\(session.capture())")
    let lines = screen.split(separator: "\n")
    let at = try #require(lines.firstIndex { $0.contains("why parse:") })
    let why = lines[at...].prefix { !$0.hasPrefix("─") }.joined(separator: " ")
    #expect(why.contains("none of them can ever start"), "screen:\n\(screen)")
    #expect(lines.count <= 24)
    try session.send("q")
    expectEnded(session, status: 0)
  }

  @Test func restartReadsAnEditedScenarioFileAgain() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-e2e-\(getpid())-restart.yaml"
    ).path
    let scenario = { (title: String) in
      "scenario: edited\ntitle: \"\(title)\"\nqueues:\n  - {name: q}\noperations:\n"
        + "  - {name: a, queue: q, work: 1}\n"
    }
    try scenario("Before the edit").write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let session = try start(arguments: ["play", path, "--paused"])
    try #require(session.waitFor("Before the edit"), "screen:\n\(session.capture())")
    try scenario("After the edit").write(toFile: path, atomically: true, encoding: .utf8)
    try session.send("r")
    try session.send("y")
    #expect(session.waitFor("After the edit"), "screen:\n\(session.capture())")
    try session.send("q")
    expectEnded(session, status: 0)
  }
}
