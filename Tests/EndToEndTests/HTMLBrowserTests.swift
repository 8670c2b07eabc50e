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
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Browser/html_handout.py").path

  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// python3 with selenium, Chromium and chromedriver.
  static let available: Bool = {
    guard let python = onPath("python3"), onPath("chromium") != nil,
      onPath("chromedriver") != nil
    else { return false }
    let out = scratchDirectory.appendingPathComponent("selenium-check.txt").path
    guard
      let check = try? ChildProcess(
        [python, "-c", "import selenium; print('selenium-ok')"], outputPath: out),
      check.waitForExit(timeout: .seconds(30))
    else { return false }
    return (try? String(contentsOfFile: out, encoding: .utf8))?.contains("selenium-ok") ?? false
  }()

  /// Runs the browser script with `arguments` and returns its output, expecting it to end in `ok`.
  static func runScript(_ arguments: [String]) throws -> (output: String, dir: URL) {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    let python = try #require(Self.onPath("python3"))
    let dir = scratchDirectory.appendingPathComponent("html-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let log = dir.appendingPathComponent("log.txt").path
    let child = try ChildProcess(
      [python, Self.script, "--opsview", binary, "--out", dir.path] + arguments, outputPath: log)
    let finished = child.waitForExit(timeout: .seconds(600))
    if !finished { child.stop(SIGKILL) }
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(finished, "the browser script did not finish in 600 s:\n\(output)")
    #expect(output.split(separator: "\n").last == "ok", "\(output)")
    #expect(!output.contains("FAIL"), "\(output)")
    return (output, dir)
  }

  @Test(.enabled(if: available, "needs python3 with selenium, chromium and chromedriver"))
  func theTourPageBehavesAsTheBoardInHeadlessChromium() throws {
    let (_, dir) = try Self.runScript([])
    for shot in ["tour-1280x800.png", "tour-390x844.png"] {
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(shot).path))
    }
  }

  /// The page's why lines are the engine's, for every operation at the end of every instant of
  /// every built-in scenario (see `--why` in the script).
  @Test(.enabled(if: available, "needs python3 with selenium, chromium and chromedriver"))
  func thePageSaysWhyInTheEngineWords() throws {
    let (output, _) = try Self.runScript(["--why"])
    #expect(output.contains("why stress: "), "\(output)")
  }
}
