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

  /// A rehearsal: w, g, l or n then Esc left the presenter for the board for good; in quiz mode the
  /// header lost the scenario's title at 80 columns.
  @Test func viewsOpenedInThePresenterReturnToItAt80x24() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(binary, ["play", "tour", "--paused", "--present", "--quiz"]))
    let first = try #require(
      session.settled { $0.contains("State machine · download") }, "screen:\n\(session.capture())")
    #expect(first.hasPrefix(" opsview │ Tour: a photo app's"), "screen:\n\(first)")
    for key in ["w", "g", "l", "n"] {
      try session.send(key)
      #expect(
        session.waitUntil { !$0.contains("State machine · download") },
        "\(key): screen:\n\(session.capture())")
      try session.send("Escape")
      let back = try #require(
        session.settled { $0.contains("State machine · download") },
        "\(key), Esc: screen:\n\(session.capture())")
      #expect(!back.contains("─ Log"), "\(key): screen:\n\(back)")
    }
    try session.send("Escape")
    #expect(session.waitFor("─ Queues"), "screen:\n\(session.capture())")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }
}
