import Foundation
import Testing

/// `opsview replay` shows a recording while it is read: fed through a FIFO that the test writes
/// slowly, the board is on screen with the first operations and "reading…" before the writer has
/// finished, `q` quits then, and once the rest comes the board plays it to the end.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the replay test"))
struct ReplayWhileReadingEndToEndTests {
  /// A FIFO in a fresh directory, held open for writing by the test (O_RDWR: the open does not
  /// wait for a reader), and the tour's recording cut in two.
  static func fifo(_ name: String) throws -> (path: String, fd: Int32, first: String, rest: String)
  {
    let trace = try opsview(["trace", "tour", "--format", "jsonl"])
    let lines = trace.out.split(separator: "\n", omittingEmptySubsequences: false)
    let cut = 12
    let dir = try OutputFilesEndToEndTests.directory(name)
    let path = dir + "/big.jsonl"
    try #require(mkfifo(path, 0o600) == 0)
    let fd = open(path, O_RDWR)
    try #require(fd >= 0)
    return (
      path, fd, lines[..<cut].joined(separator: "\n") + "\n",
      lines[cut...].joined(separator: "\n")
    )
  }

  static func write(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
  }

  @Test func theFirstScreenComesBeforeTheReadingEndsAndTheRestFollows() throws {
    let binary = try #require(OpsviewBinary.path)
    let (path, fd, first, rest) = try Self.fifo("replay-reading")
    Self.write(fd, first)
    let board = try TmuxSession(
      width: 120, height: 36, command: TmuxSession.wrapped(binary, ["replay", path]))
    // The writer has not finished (the FIFO is still open for writing): the board is up already.
    #expect(board.waitFor("reading…", timeout: .seconds(30)), "screen:\n\(board.capture())")
    #expect(board.capture().contains("network"), "screen:\n\(board.capture())")
    Self.write(fd, rest)
    close(fd)
    #expect(
      AttachEndToEndTests.eventually { !board.capture().contains("reading…") },
      "screen:\n\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(20)), "screen:\n\(board.capture())")
  }

  @Test func qQuitsWhileTheReadingGoesOn() throws {
    let binary = try #require(OpsviewBinary.path)
    let (path, fd, first, _) = try Self.fifo("replay-quit")
    defer { close(fd) }
    Self.write(fd, first)
    let board = try TmuxSession(
      width: 120, height: 36, command: TmuxSession.wrapped(binary, ["replay", path]))
    #expect(board.waitFor("reading…", timeout: .seconds(30)), "screen:\n\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(20)), "screen:\n\(board.capture())")
    #expect(board.capture().contains("tty: restored"), "screen:\n\(board.capture())")
  }
}
