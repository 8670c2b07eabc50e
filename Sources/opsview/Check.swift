import ArgumentParser
import OpsInput
import OpsScenarios

/// `opsview check`: validate scenario files without running them.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Validate scenario files and check their moments' claims against a run; print every problem; exit 1 if any file has an error.",
    discussion:
      "A dependency cycle is allowed (the deadlock lesson needs one) and reported as a warning.")

  @Argument(
    help: "Scenario files (YAML or JSON), names of built-in scenarios, or - for standard input.",
    completion: ScenarioCompletion.scenarios)
  var paths: [String]

  func run() throws {
    var failed = false
    for path in paths {
      let progress = Progress("checking \(path)")
      defer { progress.finish() }
      do {
        let s =
          path == "-"
          ? try StandardInput.loadScenario(progress: progress)
          : try Catalog.resolve(path, announce: { printError("opsview: \($0)") })
        progress.now("checking \(path): playing it for its moments' claims")
        let claims = s.momentProblems()
        progress.finish()
        for w in s.warnings { printSafe("\(path): warning: \(w)") }
        // The moments' claims are checked by playing the scenario (above, under the progress line):
        // a caption that states what the run does not do is an error like any other.
        if !claims.isEmpty {
          failed = true
          for problem in claims { printSafe(problem.description) }
          continue
        }
        let claimCount = s.moments.reduce(0) { $0 + $1.claims.count }
        printSafe(
          "\(path == "-" ? ScenarioLoader.standardInputName : path): ok (\(counted(s.queues.count, "queue")), \(counted(s.operations.count, "operation")), \(counted(s.actions.count, "action")), \(counted(s.moments.count, "moment")), \(counted(claimCount, "claim")) \(claimCount == 1 ? "holds" : "hold"))"
        )
      } catch let error as ScenarioError {
        progress.finish()
        failed = true
        for problem in error.problems { printSafe(problem.description) }
      } catch {
        progress.finish()
        failed = true
        printSafe("\(path): error: \(error)")
      }
    }
    if failed { throw Exit.scenarioError }
  }

  /// One line of output: whatever it quotes from a file or a path cannot act on the terminal.
  private func printSafe(_ line: String) {
    print(TextPolicy.escaped(line, keepNewlines: false))
  }
}

/// "1 queue", "3 queues".
private func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
