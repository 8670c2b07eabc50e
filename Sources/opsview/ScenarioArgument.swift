import ArgumentParser
import OpsScenarios

/// Resolves NAME (a built-in) or PATH (a file) into a scenario, or exits 1 with every problem printed.
func resolveScenario(_ nameOrPath: String) throws -> Scenario {
  do {
    return try Catalog.resolve(nameOrPath)
  } catch let error as ScenarioError {
    // One problem per line; a newline inside a problem (quoted from the file) is escaped.
    printError(
      error.problems.map { TerminalSafe.escaped($0.description, keepNewlines: false) }
        .joined(separator: "\n"))
    throw Exit.scenarioError
  } catch {
    printError("opsview: \(error)")
    throw Exit.scenarioError
  }
}
