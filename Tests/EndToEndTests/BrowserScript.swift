import Foundation
import Testing

/// A script in `Tests/Browser` that drives headless Chromium with selenium against the built
/// `opsview`. Its suite is enabled only where its tools are installed (`available`).
struct BrowserScript: Sendable {
  /// The script's file name in `Tests/Browser`.
  let name: String
  /// The Python modules it needs beyond the standard library.
  let modules: [String]

  var path: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Browser").appendingPathComponent(name).path
  }

  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// python3 that imports `modules`, Chromium and chromedriver.
  func available() -> Bool {
    guard let python = Self.onPath("python3"), Self.onPath("chromium") != nil,
      Self.onPath("chromedriver") != nil
    else { return false }
    let out = scratchDirectory.appendingPathComponent("\(name)-check-\(UUID().uuidString).txt").path
    let imports = "import \(modules.joined(separator: ", ")); print('modules-ok')"
    guard
      let check = try? ChildProcess([python, "-c", imports], outputPath: out),
      check.waitForExit(timeout: .seconds(30))
    else { return false }
    return (try? String(contentsOfFile: out, encoding: .utf8))?.contains("modules-ok") ?? false
  }

  /// Runs the script with `arguments` and a fresh output directory and returns its output and that
  /// directory, expecting it to finish in 600 s and end in `ok` with no `FAIL`.
  func run(_ arguments: [String] = []) throws -> (output: String, dir: URL) {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    let python = try #require(Self.onPath("python3"))
    let stem = (name as NSString).deletingPathExtension
    let dir = scratchDirectory.appendingPathComponent("\(stem)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let log = dir.appendingPathComponent("log.txt").path
    // No `__pycache__` for the shared module left in the source tree.
    let child = try ChildProcess(
      [python, path, "--opsview", binary, "--out", dir.path] + arguments,
      environment: ["PYTHONDONTWRITEBYTECODE": "1"], outputPath: log)
    let finished = child.waitForExit(timeout: .seconds(600))
    if !finished { child.stop(SIGKILL) }
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    #expect(finished, "the browser script did not finish in 600 s:\n\(output)")
    #expect(output.split(separator: "\n").last == "ok", "\(output)")
    #expect(!output.contains("FAIL"), "\(output)")
    return (output, dir)
  }
}
