import Foundation
import Testing

/// Ctrl-Z, `fg`, and `kill -STOP` under an interactive bash with job control, as a user has it: the
/// board gives the terminal back while stopped and takes it again (cbreak, alternate screen, mouse)
/// when continued.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable && FileManager.default.isExecutableFile(atPath: "/bin/bash"),
    "tmux or bash is not installed: skipping the job-control tests"))
struct JobControlEndToEndTests {
  private func startShell() throws -> TmuxSession {
    try TmuxSession(
      width: 120, height: 40,
      command: [
        "/usr/bin/env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PS1=$ ", "HISTFILE=/dev/null",
        "/bin/bash", "--norc", "--noprofile", "-i",
      ])
  }

  private func startBoard(in session: TmuxSession) throws -> pid_t {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    try #require(session.waitFor("$"), "screen:\n\(session.capture())")
    try session.send("'\(binary)' play tour", "Enter")
    try #require(session.waitFor("Tour: a photo app"), "screen:\n\(session.capture())")
    return try #require(session.waitForChild(), "the board did not start")
  }

  /// The tty's modes as `stty -a` prints them.
  private func modes(_ session: TmuxSession) -> String {
    let tty = session.display("#{pane_tty}")
    return (try? Spawn.run(["/bin/stty", "-F", tty, "-a"]).output) ?? ""
  }

  private func isCooked(_ session: TmuxSession) -> Bool {
    let words = modes(session).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
    return words.contains("icanon") && words.contains("echo")
  }

  /// Keys are read one by one again: `s` suspends the selected queue at once.
  private func expectBoardTakesKeys(_ session: TmuxSession) throws {
    #expect(session.waitUntil { _ in session.alternateScreenAndMouse == (true, true) })
    // The modes are set a moment after the screen is switched: wait for them, within the timeout.
    #expect(session.waitUntil { _ in !isCooked(session) }, "modes: \(modes(session))")
    try session.send("s")
    #expect(session.waitFor("‖ suspended"), "screen:\n\(session.capture())")
  }

  @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgain() throws {
    let session = try startShell()
    _ = try startBoard(in: session)
    try session.send("C-z")
    #expect(session.waitFor("Stopped"), "screen:\n\(session.capture())")
    // The shell has the terminal (readline sets its own modes; the board's are gone).
    #expect(session.alternateScreenAndMouse == (false, false))
    try session.send("fg", "Enter")
    try expectBoardTakesKeys(session)
    try session.send("q")
    #expect(session.waitUntil { _ in session.alternateScreenAndMouse == (false, false) })
  }

  @Test func afterKillStopAndFgTheBoardIsInCursesModeAgain() throws {
    let session = try startShell()
    let board = try startBoard(in: session)
    // SIGSTOP cannot be caught: bash takes the terminal back (cooked) without the board knowing.
    #expect(kill(board, SIGSTOP) == 0)
    #expect(session.waitFor("Stopped"), "screen:\n\(session.capture())")
    try session.send("fg", "Enter")
    try expectBoardTakesKeys(session)
    try session.send("q")
    #expect(session.waitUntil { _ in session.alternateScreenAndMouse == (false, false) })
  }
}
