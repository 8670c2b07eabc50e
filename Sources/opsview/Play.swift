import ArgumentParser
import Foundation
import OpsBoard
import OpsExport
import OpsInput
import OpsScenarios
import OpsTerminal

/// `opsview play`: the live board.
struct Play: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a scenario on the live board (the default command).",
    discussion:
      "Press ? on the board for every key. Needs a real terminal; see `opsview trace` otherwise.")

  @OptionGroup var source: ScenarioOptions

  @OptionGroup var playback: PlaybackOptions
  @OptionGroup var display: DisplayOptions

  @Flag(help: "Start in the presenter layout for a projector (P toggles it on the board).")
  var present = false

  @Option(
    help: ArgumentHelp(
      "Play the scenario file FILE and start again from it whenever it changes; a version that does not load is shown on the board while the last good one keeps playing.",
      valueName: "FILE"))
  var watch: String?

  @Flag(
    help:
      "Quiz mode: before each step (.) and at each teaching moment, predict what happens next (Q toggles it)."
  )
  var quiz = false

  @Option(
    help: ArgumentHelp(
      "Write the run as it happens to FILE, a recording for `opsview replay`.", valueName: "FILE"))
  var record: String?

  @Option(
    name: .customLong("save-actions"),
    help: ArgumentHelp(
      "On quitting, write the scenario with the key commands of the run added to its actions (a new file unless --force).",
      valueName: "FILE"))
  var saveActions: String?

  @Flag(help: "Let --record and --save-actions replace a file that exists.")
  var force = false

  func validate() throws {
    if watch == "-" {
      throw ValidationError("--watch needs a scenario file: standard input cannot change")
    }
    if let watch, source.scenario != Catalog.defaultName, source.scenario != watch {
      throw ValidationError(
        "--watch names the scenario file to play: give it once (not also \(source.scenario))")
    }
  }

  func run() throws {
    // r reads the scenario again, so an edited file is played as it is now.
    let path = watch ?? source.scenario
    let s = try resolveScenario(path)
    // Standard input and a FIFO are read once: r starts the same scenario again. A file read
    // again never waits for a writer (it may have become a FIFO): the board would freeze.
    if path == "-" { try StandardInput.takeKeysFromTerminal(what: "the scenario") }
    let readOnce = path == "-" || InputFile.isFIFO(path)
    try preflightTerminal()
    let board = BoardSession(
      s.board, speed: playback.speed ?? s.speed, paused: playback.paused,
      reload: { readOnce ? s.board : try Catalog.resolve(path, waitsForWriter: false).board })
    board.adaptsFoldBudget = true
    if present { board.present() }
    if quiz { board.setQuiz(true) }
    if let watch {
      let changes = FileChanges(path: watch)
      board.watch { changes.changed() }
    }
    // Both output files are checked now, before the run: a path that cannot be written must not
    // cost the user the run's key actions at quit. Neither writes over the scenario played.
    let inputs = [path, s.source]
    var recorder: RecordingFile?
    var actionsFile: OutputFile?
    do {
      if let saveActions {
        guard Catalog.sourceText(of: s) != nil else {
          printError("opsview: cannot read \(s.source) again to add the actions to it")
          throw Exit.scenarioError
        }
        actionsFile = try OutputFile(saveActions, replacing: force, inputs: inputs)
      }
      if let record {
        let header = RecordingHeader(
          opsview: Opsview.configuration.version, scenario: s.id, title: s.title,
          source: Catalog.sourceText(of: s))
        let file = try RecordingFile(path: record, header: header, force: force, inputs: inputs)
        board.observePresent { file.record($0) }
        recorder = file
      }
    } catch let error as OutputFile.Failure {
      printError("opsview: \(error)")
      throw Exit.scenarioError
    }
    defer { withExtendedLifetime(recorder) {} }
    try runOnTerminal(board, display)
    if let saveActions, let actionsFile {
      try writeActions(of: board, to: saveActions, file: actionsFile, scenario: s)
    }
  }

  /// The key commands of the present run, as the scenario's actions.
  private func writeActions(
    of board: BoardSession, to path: String, file: OutputFile, scenario: Scenario
  ) throws {
    guard let text = Catalog.sourceText(of: scenario) else {
      printError("opsview: cannot read \(scenario.source) again to add the actions to it")
      throw Exit.scenarioError
    }
    let keys = board.keyCommandsSent.map { ScenarioAction(at: $0.time, command: $0.command) }
    let out = ActionsFile.text(scenarioText: text, own: scenario.actions, keys: keys)
    do {
      try file.commit(bytes: Array(out.utf8))
    } catch {
      printError("opsview: \(error)")
      throw Exit.scenarioError
    }
    printError("opsview: wrote \(scenario.actions.count + keys.count) actions to \(path)")
    // The keys changed the run: a caption may no longer be true of it. Say so now, not in front of
    // a room.
    if let saved = try? ScenarioLoader.parse(out, file: path, defaultID: scenario.id) {
      let stale = saved.momentProblems()
      if !stale.isEmpty {
        printError(
          "opsview: \(stale.count) claim\(stale.count == 1 ? "" : "s") of its moments no longer "
            + "hold\(stale.count == 1 ? "s" : "") with your keys; `opsview check \(path)` lists "
            + "them: edit those captions before you play it to a room")
      }
    }
  }
}
