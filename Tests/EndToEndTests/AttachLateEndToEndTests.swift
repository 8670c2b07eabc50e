import Foundation
import Testing

/// A board attached mid-run to the example, whose probe had to drop most of the story (a buffer of
/// 60 events and no viewer): it shows the operations the program has now, added before it
/// attached, and says it caught up from a snapshot.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the attach test"))
struct AttachLateEndToEndTests {
  @Test func aBoardAttachedMidRunShowsTheOperationsAddedBeforeIt() throws {
    let (binary, example, runtime) = try AttachEndToEndTests.setUp()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let logPath = runtime + "/photos.log"
    let program = try ChildProcess(
      [example, "--buffer", "60"], environment: ["XDG_RUNTIME_DIR": runtime],
      outputPath: logPath)
    defer { program.stop(SIGKILL) }
    func log() -> String { AttachEndToEndTests.read(logPath) }
    // The third batch is added once the second is shown; by then the buffer is long full.
    let thirdBatch = AttachEndToEndTests.eventually(timeout: .seconds(60)) {
      log().contains("photos: showing photo2-4")
    }
    try #require(thirdBatch, "log:\n\(log())")
    let address =
      AttachEndToEndTests.listing(binary, runtime).split(separator: "\n").first
      .map(String.init) ?? ""
    let board = try TmuxSession(
      width: 140, height: 45,
      command: TmuxSession.wrapped(
        binary, ["attach", address], environment: ["XDG_RUNTIME_DIR": runtime]))
    try #require(board.waitFor("live", timeout: .seconds(30)), "screen:\n\(board.capture())")
    // The third batch's operations were added before the board attached, their events dropped:
    // the snapshot brings them, in their states, while the batch is still running.
    #expect(
      board.waitFor("photo3-", timeout: .seconds(30)), "screen:\n\(board.capture())")
    #expect(!log().contains("photos: showing photo3-4"), "the batch ended first; log:\n\(log())")
    #expect(board.waitFor("caught up at event", timeout: .seconds(10)), "\(board.capture())")
    #expect(board.capture().contains("executing"), "\(board.capture())")
    try board.send("q")
  }
}
