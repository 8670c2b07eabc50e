import ArgumentParser
import Foundation
import OpsBoard
import OpsScenarios

/// `opsview replay`: a recording on the board.
struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a recording (from `play --record` or `trace --format jsonl`) on the board.",
    discussion: """
      Pause, step, speed, time travel, filters, detail, warnings and explanations work as for a \
      scenario: they are computed from the recorded events. A recording takes no commands. FILE - \
      reads standard input (keys then come from the terminal).
      """)

  @Argument(
    help: "The recording (.jsonl), or - for standard input.",
    completion: ScenarioCompletion.recordings)
  var file: String

  @OptionGroup var playback: PlaybackOptions
  @OptionGroup var display: DisplayOptions

  func run() throws {
    let progress = Progress("reading")
    defer { progress.finish() }
    let input = try RecordingInput(path: file, progress: progress)
    if file == "-" { try StandardInput.takeKeysFromTerminal(what: "the recording") }
    try preflightTerminal()
    progress.now("preparing the board for \(input.recording.events.count) events")
    let events = input.recording.events
    let board = BoardSession(
      title: input.title, notes: input.notes, speed: playback.speed ?? input.scenario?.speed ?? 1,
      paused: playback.paused,
      workSettings: input.scenario?.workSettings ?? [:],
      makeSource: { RecordingSource(events: events) })
    progress.finish()
    try runOnTerminal(board, display)
  }

}
