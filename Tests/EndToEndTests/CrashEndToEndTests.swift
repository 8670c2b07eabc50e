import Foundation
import Testing

/// Whatever can still crash must not leave a learner in front of the Swift backtracer's prompt:
/// "Press space to interact…", where Space (the board's pause key) opened a debugger.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the crash test"))
struct CrashEndToEndTests {
  @Test func aTrapOnTheBoardRestoresTheTerminalAndWritesTheBacktraceToAFile() throws {
    let binary = try #require(OpsviewBinary.path)
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("opsview-crash-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let board = try TmuxSession(
      width: 120, height: 40,
      command: TmuxSession.wrapped(
        binary, ["play", "tour", "--paused"],
        environment: ["TMPDIR": directory, "OPSVIEW_TEST_TRAP_KEY": "!"]))
    #expect(board.waitFor("q quit"), "screen:\n\(board.capture())")
    try board.send("!")
    #expect(board.waitFor("exit: 132", timeout: .seconds(60)), "screen:\n\(board.capture())")
    let screen = board.capture()
    #expect(!screen.contains("Press space"), "screen:\n\(screen)")
    #expect(
      squeezed(screen).contains(
        squeezed(
          "opsview crashed, sorry: the board is closed and the backtrace is being written to \(directory)"
        )),
      "screen:\n\(screen)")
    #expect(screen.contains("tty: restored"), "screen:\n\(screen)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.hasPrefix("opsview-") && $0.hasSuffix(".log")
    }
    #expect(logs.count == 1, "\(logs)")
    let log = try String(contentsOfFile: directory + "/" + (logs.first ?? ""), encoding: .utf8)
    #expect(log.contains("Program crashed"))
  }
}
