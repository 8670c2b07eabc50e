import Foundation
import Testing

/// The HTML handout in a real browser: `Tests/Browser/html_handout.py` opens
/// `opsview export tour --format html` in headless Chromium with selenium and drives it like a
/// learner (no console errors, the table's states at several times equal `trace --until T`, the
/// keys, a moment's caption and its claims, the quiz scored as on the board and asked at every
/// moment of the workshop's plan as the board asks it, the timeline picture, the accessibility tree
/// and Tab reaching every control, screenshots at 1280x800 and 390x844). Runs where Chromium, its driver and selenium are
/// installed (.ci/run installs Debian `chromium`, `chromium-driver` and PyPI `selenium`).
@Suite struct HTMLBrowserTests {
  static let script = BrowserScript(name: "html_handout.py", modules: ["selenium"])
  static let available = script.available()

  @Test(.enabled(if: available, "needs python3 with selenium, chromium and chromedriver"))
  func theTourPageBehavesAsTheBoardInHeadlessChromium() throws {
    let (_, dir) = try Self.script.run()
    for shot in ["tour-1280x800.png", "tour-390x844.png"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(shot).path))
    }
  }

  /// The page's why lines are the engine's, for every operation at the end of every instant of
  /// every built-in scenario (see `--why` in the script).
  @Test(.enabled(if: available, "needs python3 with selenium, chromium and chromedriver"))
  func thePageSaysWhyInTheEngineWords() throws {
    let (output, _) = try Self.script.run(["--why"])
    #expect(output.contains("why stress: "), "\(output)")
  }
}
