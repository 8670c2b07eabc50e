import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// A scenario file in a fresh directory, and a board that plays it as `play --watch FILE` does.
private final class WatchedFile {
  let path: String
  private let dir: URL
  private var last: String

  init(_ text: String) throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    path = dir.appendingPathComponent("demo.yaml").path
    last = text
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  deinit { try? FileManager.default.removeItem(at: dir) }

  func write(_ text: String) throws {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func changed() -> Bool {
    let now = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    defer { last = now }
    return now != last
  }

  func board() throws -> BoardSession {
    let path = path
    func load() throws -> BoardScenario {
      let s = try Catalog.resolve(path)
      return BoardScenario(
        title: s.title, notes: s.notes, moments: boardMoments(s), makeRuntime: { s.makeRuntime() })
    }
    let s = BoardSession(try load(), paused: true, reload: load)
    s.watch(every: 0.25) { self.changed() }
    return s
  }
}

@Suite("play --watch: an edited file is played again; a broken one is shown, not fatal")
struct WatchTests {
  @Test func anEditIsPickedUpABrokenOneShownAndAFixRecovers() throws {
    let starter = StarterScenario.text(id: "demo")
    let file = try WatchedFile(starter)
    let s = try file.board()
    let title = s.title
    // Paused, the board still asks for ticks so it can look at the file.
    #expect(s.nextFrameDelay == 0.25)
    s.tick(elapsed: 0.3)
    #expect(s.title == title, "nothing changed yet")

    try file.write(starter.replacingOccurrences(of: "title: \"", with: "title: \"Edited "))
    s.tick(elapsed: 0.1)
    #expect(s.title == title, "not looked at before the interval")
    s.tick(elapsed: 0.2)
    #expect(s.title.hasPrefix("Edited "), "\(s.title)")
    #expect(s.status?.text.contains("started again") == true)

    // A broken edit: the board shows the loader's problem (with the line) and keeps the last good one.
    try file.write(starter + "\nqueues: [\n")
    s.tick(elapsed: 0.3)
    let problem = try #require(s.loadError)
    #expect(problem.contains("demo.yaml:"), "\(problem)")
    #expect(s.title.hasPrefix("Edited "))
    let text = screenText(s, 80, 24)
    #expect(text.contains("The scenario file does not load"), "\(text)")
    #expect(text.contains("demo.yaml:"))

    // Fixed again: the error goes away.
    try file.write(starter)
    s.tick(elapsed: 0.3)
    #expect(s.loadError == nil)
    #expect(s.title == title)
    #expect(!screenText(s, 80, 24).contains("does not load"))
  }

  @Test func rReadsTheFileAgainAndShowsItsProblems() throws {
    let starter = StarterScenario.text(id: "demo")
    let file = try WatchedFile(starter)
    let s = try file.board()
    try file.write("scenario: demo\nqueues: 3\n")
    press(s, .character("r"), .character("y"))
    #expect(s.loadError?.contains("demo.yaml") == true, "\(s.loadError ?? "nil")")
    try file.write(starter)
    press(s, .character("r"), .character("y"))
    #expect(s.loadError == nil)
  }
}
