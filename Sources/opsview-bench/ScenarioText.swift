import OpsEngine
import OpsEvents
import OpsScenarios

/// The scenario file of `largeScenario(operations:)`, in the flow style of the built-in files, for the
/// command-line benchmarks (`opsview trace` / `check` read files). `opsview-bench generate N`.
func largeScenarioText(operations count: Int) -> String {
  let scenario = largeScenario(operations: count)
  var text = "scenario: \(scenario.id)\ntitle: \"\(scenario.title)\"\nqueues:\n"
  for q in scenario.queues {
    text +=
      "  - {name: \(q.name), maxConcurrent: \(q.maxConcurrent.map(String.init) ?? "default")}\n"
  }
  text += "operations:\n"
  for op in scenario.operations {
    let spec = op.spec
    text += "  - {name: \(spec.name), queue: \(op.queue), work: \(spec.work.duration)"
    if !spec.dependencies.isEmpty {
      text += ", dependencies: [\(spec.dependencies.joined(separator: ", "))]"
    }
    text += ", addedAt: \(op.addedAt)}\n"
  }
  text += "actions:\n"
  for action in scenario.actions {
    if case .cancel(let name) = action.command {
      text += "  - {at: \(action.at), cancel: \(name)}\n"
    }
  }
  return text
}
