import ArgumentParser
import OpsScenarios

/// `opsview check`: validate scenario files without running them.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Validate scenario files; print every problem; exit 1 if any file has an error.",
    discussion:
      "A dependency cycle is allowed (the deadlock lesson needs one) and reported as a warning.")

  @Argument(help: "Scenario files (YAML or JSON), or names of built-in scenarios.")
  var paths: [String]

  func run() throws {
    var failed = false
    for path in paths {
      do {
        let s = try Catalog.resolve(path)
        for w in s.warnings { print("\(path): warning: \(w)") }
        print(
          "\(path): ok (\(s.queues.count) queues, \(s.operations.count) operations, \(s.actions.count) actions, \(s.moments.count) moments)"
        )
      } catch let error as ScenarioError {
        failed = true
        print(error.description)
      } catch {
        failed = true
        print("\(path): error: \(error)")
      }
    }
    if failed { throw Exit.scenarioError }
  }
}
