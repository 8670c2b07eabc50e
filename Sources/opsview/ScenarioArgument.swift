import ArgumentParser
import OpsBoard
import OpsInput
import OpsScenarios

/// The scenario argument `play` and `trace` share: a built-in name or a file.
struct ScenarioOptions: ParsableArguments {
  @Argument(
    help:
      "A built-in scenario name (see `opsview list`), a path to a scenario file, or - for standard input.",
    completion: ScenarioCompletion.scenarios
  )
  var scenario: String = Catalog.defaultName

  /// The scenario, or exit 1 with every problem printed.
  func resolve() throws -> Scenario { try resolveScenario(scenario) }
}

/// `trace`'s source: a scenario as for `play`, or a recording.
struct TraceSource: ParsableArguments {
  @Argument(
    help:
      "A built-in scenario name (see `opsview list`), a path to a scenario file, a recording (.jsonl), or - for standard input (either).",
    completion: ScenarioCompletion.scenariosAndRecordings
  )
  var scenario: String = Catalog.defaultName

  func resolve() throws -> Scenario { try resolveScenario(scenario) }
}

/// Resolves NAME (a built-in) or PATH (a file) into a scenario, or exits 1 with every problem printed.
/// `-` reads a scenario from standard input.
func resolveScenario(_ nameOrPath: String) throws -> Scenario {
  let progress = Progress("loading \(nameOrPath)")
  defer { progress.finish() }
  if nameOrPath == "-" { return try StandardInput.scenario(progress: progress) }
  do {
    return try Catalog.resolve(nameOrPath, announce: { printError("opsview: \($0)") })
  } catch let error as ScenarioError {
    throw reportScenarioProblems(error, progress: progress)
  } catch {
    progress.finish()
    printError("opsview: \(error)")
    throw Exit.scenarioError
  }
}

/// Ends `progress` and prints the scenario's problems, one per line (a newline inside a problem,
/// quoted from the file, is escaped); returns the exit to throw.
func reportScenarioProblems(_ error: ScenarioError, progress: Progress) -> ExitCode {
  progress.finish()
  printError(
    error.problems.map { TextPolicy.escaped($0.description, keepNewlines: false) }
      .joined(separator: "\n"))
  return Exit.scenarioError
}

extension Scenario {
  /// What the board shows of it.
  var board: BoardScenario {
    BoardScenario(
      title: title, notes: notes, workSettings: workSettings, moments: playMoments,
      streaming: { self.makeRuntime(recording: false, observer: $0) })
  }

}
