import Foundation
import Testing

/// CJK and emoji names on the real board, in tmux: drawn as themselves, two columns each, not `?`.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct WideCharacterEndToEndTests {
  @Test func wideNamesAreDrawnAsThemselves() throws {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    let path = try temporaryFile(
      "wide.yaml",
      """
      title: 下载 and 📦
      queues: [{name: 网络}]
      operations:
        - {name: 下载, work: 5}
        - {name: 📦 pack, work: 5, dependencies: [下载]}
      """)
    let session = try TmuxSession(
      width: 120, height: 40, command: TmuxSession.wrapped(binary, ["play", path, "--paused"]))
    let screen = try #require(
      session.settled { $0.contains("下载 and 📦") }, "screen:\n\(session.capture())")
    #expect(screen.contains("📦 pack"), "screen:\n\(screen)")
    #expect(screen.contains("网络"), "screen:\n\(screen)")
    #expect(!screen.contains("?? pack") && !screen.contains("? pack"), "screen:\n\(screen)")
    try session.send("q")
    #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
  }
}
