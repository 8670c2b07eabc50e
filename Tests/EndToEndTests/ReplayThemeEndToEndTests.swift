import Foundation
import Testing

/// Every SGR parameter on a styled capture (`\e[0;2;90m` gives 0, 2 and 90).
private func sgrParameters(_ screen: String) -> Set<String> {
  var found: Set<String> = []
  var rest = Substring(screen)
  while let start = rest.range(of: "\u{1B}[") {
    rest = rest[start.upperBound...]
    guard let end = rest.firstIndex(where: { !"0123456789;".contains($0) }) else { break }
    if rest[end] == "m" { found.formUnion(rest[..<end].split(separator: ";").map(String.init)) }
    rest = rest[end...]
  }
  return found
}

/// `replay` takes the display options of `play`: the high-contrast theme draws a recording too.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the replay theme test"))
struct ReplayThemeEndToEndTests {
  @Test func aReplayWithTheHighContrastThemeHasNothingDimAndNoGrey() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let recording = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-e2e-theme-\(UUID().uuidString).jsonl"
    ).path
    defer { try? FileManager.default.removeItem(atPath: recording) }
    let traced = try opsview(["trace", "tour", "--format", "jsonl"])
    #expect(traced.status == 0, "\(traced.err)")
    try traced.out.write(toFile: recording, atomically: true, encoding: .utf8)

    func screen(theme: String) throws -> Set<String> {
      let session = try TmuxSession(
        width: 80, height: 24,
        command: TmuxSession.wrapped(
          binary, ["replay", recording, "--paused", "--theme", theme]))
      try #require(session.waitFor("recording:"), "screen:\n\(session.capture())")
      let styles = sgrParameters(session.captureStyled())
      try session.send("q")
      #expect(session.waitFor("exit: 0"), "screen:\n\(session.capture())")
      return styles
    }
    // The standard theme draws dim text (2): the control that the capture sees it. Grey (90) is
    // drawn only when the terminal has colours (the test's may not), and high contrast has none.
    let standard = try screen(theme: "standard")
    #expect(standard.contains("2"), "\(standard.sorted())")
    let high = try screen(theme: "high-contrast")
    #expect(!high.contains("2") && !high.contains("90"), "\(high.sorted())")
  }
}
