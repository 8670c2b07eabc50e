import Foundation
import OpsEngine
import OpsEvents
import OpsTestSupport
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

/// `opsview verify` at 0.2 real seconds per scenario second. Foundation runs on the real clock: on
/// a loaded machine a start can come later than the tolerance (60 ms at this scale), when every
/// thread of Dispatch's pool is busy with other tests. Lateness alone is run again, up to five
/// runs; anything else is returned at once, and a difference in semantics that only looks like
/// lateness repeats on every run.
///
/// A run sleeps between the scenario's instants, on a thread of its own (`onOwnThread`).
func verifyAllowingLateness(_ scenario: Scenario) async -> Verification {
  var v = await onOwnThread { Verification.run(scenario, scale: 0.2) }
  var runs = 1
  while v.differsOnlyByLateness && runs < 5 {
    v = await onOwnThread { Verification.run(scenario, scale: 0.2) }
    runs += 1
  }
  return v
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
