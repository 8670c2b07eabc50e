import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// Presses keys in order; none of them may quit (tests that quit call `handle` themselves).
func press(
  _ s: BoardSession, _ keys: KeyInput..., sourceLocation: SourceLocation = #_sourceLocation
) {
  for k in keys { #expect(s.handle(k), "\(k) quit", sourceLocation: sourceLocation) }
}

/// Types each character as a key.
func type(_ s: BoardSession, _ text: String) {
  for c in text { _ = s.handle(.character(c)) }
}

func screenText(_ s: BoardSession, _ w: Int = 80, _ h: Int = 24, ascii: Bool = false) -> String {
  s.render(width: w, height: h, ascii: ascii).text
}

func screenLines(_ s: BoardSession, _ w: Int = 80, _ h: Int = 24, ascii: Bool = false)
  -> [Substring]
{
  screenText(s, w, h, ascii: ascii).split(separator: "\n", omittingEmptySubsequences: false)
}

/// A built-in scenario on the board, as `opsview play NAME` starts it (notes and work settings
/// included where the test needs them).
func builtInSession(_ name: String, paused: Bool = true, speed: Double? = nil) -> BoardSession {
  let scenario = Catalog.named(name)!
  return BoardSession(
    title: scenario.title, notes: scenario.notes, speed: speed ?? scenario.speed, paused: paused,
    makeRuntime: { scenario.makeRuntime() })
}
