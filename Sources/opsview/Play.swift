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

  @OptionGroup var source: ScenarioOptions

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

  @Flag(help: "Start in the presenter layout for a projector (P toggles it on the board).")
  var present = false

  func validate() throws {
    if let s = speed, let problem = NumberOption.speedProblem(s) { throw ValidationError(problem) }
  }

  func run() throws {
    let s = try source.resolve()
    do {
      try TerminalApp.preflight()
    } catch {
      printError("\(error)")
      throw Exit.usage
    }
    // r reads the scenario again, so an edited file is played as it is now.
    let path = source.scenario
    let board = BoardSession(
      s.board, speed: speed ?? s.speed, paused: paused,
      reload: { try Catalog.resolve(path).board })
    if present { board.present() }
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
