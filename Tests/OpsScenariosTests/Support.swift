import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// Parses YAML text given inline in a test.
func parseScenario(_ yaml: String, file: String = "test.yaml", id: String = "test") throws
  -> Scenario
{
  try ScenarioLoader.parse(yaml, file: file, defaultID: id)
}

/// The problems a text has; an empty list when it parses.
func problems(_ yaml: String, file: String = "test.yaml") -> [ScenarioProblem] {
  do {
    _ = try parseScenario(yaml, file: file)
    return []
  } catch let error as ScenarioError {
    return error.problems
  } catch {
    Issue.record("unexpected error type: \(error)")
    return []
  }
}

/// The directory of malformed fixture files, copied into the test bundle.
var malformedDirectory: URL {
  Bundle.module.resourceURL!.appending(path: "Malformed")
}

/// Loads a fixture by file name and returns its problems (empty when it loads).
func fixtureProblems(_ name: String) -> [ScenarioProblem] {
  do {
    _ = try ScenarioLoader.load(path: malformedDirectory.appending(path: name).path)
    return []
  } catch let error as ScenarioError {
    return error.problems
  } catch {
    Issue.record("unexpected error type: \(error)")
    return []
  }
}

extension VirtualRuntime {
  /// (time, type, subject) of every event, for compact assertions.
  var timeline: [String] {
    events.map { "\(formatSeconds($0.time)) \($0.kind.type) \($0.kind.subject)" }
  }
}

extension VirtualRuntime {
  /// When the first event matching `predicate` happened.
  func firstTime(_ predicate: (EventKind) -> Bool) -> Double? {
    events.first { predicate($0.kind) }?.time
  }
}
