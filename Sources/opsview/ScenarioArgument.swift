import ArgumentParser
import OpsScenarios

/// Resolves NAME (a built-in) or PATH (a file) into a scenario, or exits 1 with every problem printed.
func resolveScenario(_ nameOrPath: String) throws -> Scenario {
  do {
    return try Catalog.resolve(nameOrPath)
  } catch let error as ScenarioError {
    printError(error.description)
    throw Exit.scenarioError
  } catch {
    printError("opsview: \(error)")
    throw Exit.scenarioError
  }
}
