import ArgumentParser
import Foundation
import OpsBoard
import OpsScenarios
import OpsTerminal

/// `opsview play`: the live board.
struct Play: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a scenario on the live board (the default command).",
    discussion:
      "Press ? on the board for every key. Needs a real terminal; see `opsview trace` otherwise.")

  @Argument(help: "A built-in scenario name (see `opsview list`) or a path to a scenario file.")
  var scenario: String = Catalog.defaultName

  // Unconditional: `--speed -1` is a value to refuse with its bounds, not a missing one.
  @Option(
    parsing: .unconditional,
    help:
      "Playback speed: virtual seconds per real second, > 0 and <= 1000 (default: the scenario's own)."
  )
  var speed: Double?

  @Flag(help: "Start paused (press Space to play, . to step one event).")
  var paused = false

  @Flag(
    name: .customLong("no-mouse"),
    help: "Do not capture the mouse, so text can be selected and copied.")
  var noMouse = false

  @Flag(help: "Use ASCII glyphs only (automatic when the locale is not UTF-8).")
  var ascii = false

  func validate() throws {
    if let s = speed, let problem = NumberOption.speedProblem(s) { throw ValidationError(problem) }
  }

  func run() throws {
    let s = try resolveScenario(scenario)
    do {
      try TerminalApp.preflight()
    } catch {
      printError("\(error)")
      throw Exit.usage
    }
    let board = BoardSession(
      title: s.title, notes: s.notes, speed: speed ?? s.speed, paused: paused,
      workSettings: s.workSettings,
      makeRuntime: { s.makeRuntime() })
    let outcome = MainActor.assumeIsolated {
      Result { () throws(TerminalError) in
        try TerminalApp.run(board, options: TerminalOptions(mouse: !noMouse, ascii: ascii))
      }
    }
    switch outcome {
    case .success(let reason):
      if reason.exitCode != 0 { throw ExitCode(reason.exitCode) }
    case .failure(let error):
      printError("\(error)")
      throw Exit.usage
    }
  }
}
