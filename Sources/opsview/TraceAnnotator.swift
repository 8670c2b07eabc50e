import OpsEngine
import OpsEvents

/// Extra lines for the text trace with `--explain`: the engine's why lines, aligned under the event
/// columns. (Warnings are events of their own and print as trace lines.)
struct TraceAnnotator {
  let text: TextTrace
  let explain: Bool
  private var explainer = WaitingExplainer()

  init(text: TextTrace, explain: Bool) {
    self.text = text
    self.explain = explain
  }

  /// Lines to print before `event`: explanations closing the previous instant.
  mutating func annotate(_ event: Event) -> [String] {
    guard explain else { return [] }
    return explainer.lines(before: event).map { text.note("why", $0.operation, $0.why) }
  }

  /// Explanations for the last instant, when the run ends.
  mutating func finish() -> [String] {
    explain ? explainer.finish().map { text.note("why", $0.operation, $0.why) } : []
  }
}

extension TextTrace {
  /// An annotation line aligned under the event columns.
  func note(_ label: String, _ subject: String, _ message: String) -> String {
    String(repeating: " ", count: 9 - min(label.count, 9)) + label + "  "
      + String(repeating: " ", count: 6) + "  "
      + subject.padding(toLength: max(subject.count, subjectWidth), withPad: " ", startingAt: 0)
      + "  " + message
  }
}
