import Foundation
import Testing

/// The example photo pipeline with its probe, watched and steered by `opsview attach` in tmux.
///
/// Every wait is bounded (generous, for a loaded CI machine: the bounds only limit a failure), and
/// the program and the tmux server are killed when the test ends, whatever happened.
@Suite(
  .serialized,
  .enabled(if: TmuxSession.isAvailable, "tmux is not installed: skipping the attach test"))
struct AttachEndToEndTests {
  /// Waits for `condition`, polling every 50 ms, up to `timeout`.
  static func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
      if condition() { return true }
      usleep(50_000)
    }
    return condition()
  }

  /// A private runtime directory (this test's probes only) and the example's path.
  static func setUp() throws -> (binary: String, example: String, runtime: String) {
    let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
    let example = URL(fileURLWithPath: binary).deletingLastPathComponent()
      .appendingPathComponent("opsview-example-photos").path
    try #require(FileManager.default.isExecutableFile(atPath: example))
    let runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("opsview-attach-\(getpid())-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    return (binary, example, runtime)
  }

  static func read(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  /// `opsview attach` with no address: the probes it lists.
  static func listing(_ binary: String, _ runtime: String) -> String {
    let result = try? Spawn.run(["/usr/bin/env", "XDG_RUNTIME_DIR=\(runtime)", binary, "attach"])
    return result?.output ?? ""
  }

  @Test func attachSeesTheProgramSteersItAndSeesItExit() throws {
    let (binary, example, runtime) = try Self.setUp()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let logPath = runtime + "/photos.log"
    let program = try ChildProcess(
      [example], environment: ["XDG_RUNTIME_DIR": runtime], outputPath: logPath)
    defer { program.stop(SIGKILL) }
    func log() -> String { Self.read(logPath) }
    let started = Self.eventually { log().contains("probe at") }
    try #require(started, "log:\n\(log())")

    var listed = ""
    let isListed = Self.eventually {
      listed = Self.listing(binary, runtime)
      return listed.contains("photos-\(program.pid).sock")
    }
    try #require(isListed, "listing:\n\(listed)")
    let address = listed.split(separator: "\n").first.map(String.init) ?? ""

    let board = try TmuxSession(
      width: 120, height: 40,
      command: TmuxSession.wrapped(
        binary, ["attach", address], environment: ["XDG_RUNTIME_DIR": runtime]))
    try #require(board.waitFor("live", timeout: .seconds(30)), "screen:\n\(board.capture())")
    #expect(
      board.waitFor("download photo1-1", timeout: .seconds(30)), "screen:\n\(board.capture())")
    #expect(board.waitFor("executing", timeout: .seconds(30)), "screen:\n\(board.capture())")

    // s on the first queue (downloads) suspends it in the program.
    try board.send("s")
    #expect(
      Self.eventually { log().contains("photos: downloads suspended") }, "log:\n\(log())")
    #expect(board.waitFor("suspended", timeout: .seconds(30)), "screen:\n\(board.capture())")

    // c on a download waiting in the suspended queue cancels it in the program. Which downloads
    // started before the suspension depends on the machine's speed; when all of a batch had, the
    // next batch's downloads wait in the suspended queue. Pick one shown ready twice, half a second
    // apart (states are sampled), so it cannot have started before the suspension.
    func readyDownload(_ screen: String) -> String? {
      screen.split(separator: "\n").lazy.compactMap { row -> String? in
        let words = row.dropFirst(2).split(separator: " ")
        guard words.count >= 5, words[0] == "download", words[2] == "downloads", words[4] == "ready"
        else { return nil }
        return "download \(words[1])"
      }.first
    }
    var target: String?
    let waiting = Self.eventually(timeout: .seconds(60)) {
      guard let name = readyDownload(board.capture()) else { return false }
      usleep(500_000)
      if readyDownload(board.capture()) == name { target = name }
      return target != nil
    }
    try #require(waiting, "screen:\n\(board.capture())")
    let name = try #require(target)
    // The list's order depends on when states were sampled: move until it is selected.
    var selected = board.capture().contains("› \(name) ")
    for _ in 0..<60 where !selected {
      try board.send("j")
      selected = board.waitFor("› \(name) ", timeout: .milliseconds(300))
    }
    try #require(selected, "screen:\n\(board.capture())")
    try board.send("c")
    #expect(Self.eventually { log().contains("\(name) cancelled") }, "log:\n\(log())")
    // The board hears of it from the program: the operation's row is marked cancelled (✕).
    let shown = board.waitUntil(timeout: .seconds(30)) { screen in
      screen.split(separator: "\n").contains {
        $0.contains(name + " downloads") && $0.contains("✕")
      }
    }
    #expect(shown, "screen:\n\(board.capture())")

    #expect(program.stop(SIGTERM, timeout: .seconds(30)), "the program did not exit on SIGTERM")
    #expect(board.waitFor("disconnected", timeout: .seconds(30)), "screen:\n\(board.capture())")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(30)), "screen:\n\(board.capture())")
  }

  @Test func theEndOfARunIsShownAsItEnded() throws {
    let (binary, example, runtime) = try Self.setUp()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let logPath = runtime + "/photos.log"
    let program = try ChildProcess(
      [example, "--batches", "1"], environment: ["XDG_RUNTIME_DIR": runtime],
      outputPath: logPath)
    defer { program.stop(SIGKILL) }
    func log() -> String { Self.read(logPath) }
    try #require(Self.eventually { log().contains("probe at") }, "log:\n\(log())")
    let board = try TmuxSession(
      width: 140, height: 40,
      command: TmuxSession.wrapped(
        binary, ["attach", "photos"], environment: ["XDG_RUNTIME_DIR": runtime]))
    try #require(board.waitFor("live", timeout: .seconds(30)), "screen:\n\(board.capture())")
    #expect(program.waitForExit(timeout: .seconds(60)), "log:\n\(log())")
    #expect(log().contains("photos: done"))
    // Before: no last sample, the board kept decode executing and show pending, "disconnected".
    #expect(board.waitFor("ended", timeout: .seconds(30)), "screen:\n\(board.capture())")
    let screen = board.capture()
    // The operations' rows (the log's lines start with a time).
    let rows = screen.split(separator: "\n").filter { row in
      ["download", "decode", "show"].contains { row.dropFirst(2).hasPrefix($0 + " photo1-") }
    }
    #expect(rows.count == 12, "screen:\n\(screen)")
    #expect(rows.allSatisfy { $0.contains("finished") }, "screen:\n\(screen)")
    try board.send("q")
    #expect(board.waitFor("exit: 0", timeout: .seconds(30)), "screen:\n\(board.capture())")
  }
}
