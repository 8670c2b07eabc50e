import Foundation
import Testing

/// Teaching moments on the real binary: the clock stops at a moment, its caption is on the screen
/// (code spans without backticks), and m plays on to the next one.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct MomentEndToEndTests {
  @Test func aMomentPausesAndShowsItsCaptionAndMPlaysOn() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let session = try TmuxSession(
      width: 80, height: 24,
      command: TmuxSession.wrapped(binary, ["play", "lifecycle", "--speed", "20"]))
    // A moment pauses the board, so its screen settles.
    var screen = try #require(
      session.settled { $0.contains("Moment 1 of 5") }, "screen:\n\(session.capture())")
    #expect(screen.contains("report is added to a suspended queue"), "screen:\n\(screen)")
    #expect(!screen.contains("`"), "screen:\n\(screen)")
    #expect(screen.contains("m next moment"), "screen:\n\(screen)")
    // Held: still the first moment a moment later.
    Thread.sleep(forTimeInterval: 0.5)
    #expect(session.capture().contains("Moment 1 of 5"))
    try session.send("m")
    screen = try #require(
      session.settled { $0.contains("Moment 2 of 5") }, "screen:\n\(session.capture())")
    #expect(screen.contains("diskSpace is evaluated now"), "screen:\n\(screen)")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }
}
