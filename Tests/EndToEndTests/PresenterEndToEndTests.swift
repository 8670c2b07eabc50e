import Foundation
import Testing

/// `play --present` on the real binary at 80×24: the operations and the state machine, no log.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct PresenterEndToEndTests {
  @Test func presentShowsOperationsAndTheStateMachineAt80x24() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(binary, ["play", "priorities", "--paused", "--present"]))
    let screen = try #require(
      session.settled { $0.contains("State machine · backup") }, "screen:\n\(session.capture())")
    #expect(screen.contains("─ Operations"), "screen:\n\(screen)")
    #expect(!screen.contains("─ Log"), "screen:\n\(screen)")
    #expect(!screen.contains("─ Queues"), "screen:\n\(screen)")
    #expect(screen.contains("why backup"), "screen:\n\(screen)")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }
}
