import ArgumentParser
import OpsBoard

/// How the board is drawn: the options of every command that opens it (play, replay, attach).
struct DisplayOptions: ParsableArguments {
  @Flag(
    name: .customLong("no-mouse"),
    help: "Do not capture the mouse, so text can be selected and copied.")
  var noMouse = false

  @Flag(help: "Use ASCII glyphs only (automatic when the locale is not UTF-8).")
  var ascii = false

  @Option(
    help: ArgumentHelp(
      "Colours: standard, or high-contrast for a projector (nothing dim, bold colours; NO_COLOR still works).",
      valueName: "THEME"))
  var theme: BoardTheme = .standard
}

extension BoardTheme: ExpressibleByArgument {}

/// How a run is played back: the options of the commands that play one (play, replay).
struct PlaybackOptions: ParsableArguments {
  // Unconditional: `--speed -1` is a value to refuse with its bounds, not a missing one.
  @Option(
    parsing: .unconditional,
    help:
      "Playback speed: run seconds per real second, > 0 and <= 1000 (default: the scenario's own)."
  )
  var speed: Double?

  @Flag(help: "Start paused (press Space to play, . to step one event).")
  var paused = false

  func validate() throws {
    if let s = speed, let problem = NumberOption.speedProblem(s) { throw ValidationError(problem) }
  }
}
