import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios

/// `play --save-actions FILE`: the scenario with the run's key commands added to its `actions:`, so a
/// prepared demo replays itself. The top-level `actions:` block of its text is replaced by one list:
/// the scenario's own actions first, in their order (moments name them by index), then the key
/// commands (actions at one time run in file order, so a key command runs after the scripted ones of
/// its time, as it happened).
enum ActionsFile {
  static func text(scenarioText: String, own: [ScenarioAction], keys: [ScenarioAction]) -> String {
    var lines = scenarioText.components(separatedBy: "\n")
    if let start = lines.firstIndex(where: { $0.hasPrefix("actions:") }) {
      var end = start + 1
      // The block goes on while lines are indented, blank or comments.
      while end < lines.count,
        lines[end].isEmpty || lines[end].hasPrefix(" ") || lines[end].hasPrefix("-")
          || lines[end].hasPrefix("#")
      {
        end += 1
      }
      lines.removeSubrange(start..<end)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    let all = own.map { ($0, false) } + keys.map { ($0, true) }
    lines.append("actions:")
    for (action, fromKey) in all {
      lines.append("  - " + yaml(action) + (fromKey ? "   # key" : ""))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func yaml(_ action: ScenarioAction) -> String {
    let at = "at: \(seconds(action.at))"
    switch action.command {
    case .cancel(let op): return "{\(at), cancel: \(quoted(op))}"
    case .cancelAll(let q): return "{\(at), cancelAll: \(quoted(q))}"
    case .suspend(let q): return "{\(at), suspend: \(quoted(q))}"
    case .resume(let q): return "{\(at), resume: \(quoted(q))}"
    case .setMaxConcurrent(let q, let v):
      return
        "{\(at), maxConcurrent: {queue: \(quoted(q)), value: \(v.map(String.init) ?? "default")}}"
    }
  }

  /// Milliseconds are what the board's clock shows; more digits would only be noise.
  private static func seconds(_ t: Double) -> String {
    let ms = (t * 1000).rounded() / 1000
    return ms == ms.rounded() ? String(Int(ms)) : String(ms)
  }

  /// A JSON string is a YAML string: any name survives, whatever characters it has.
  private static func quoted(_ name: String) -> String {
    let data = try! JSONEncoder().encode(name)
    return String(decoding: data, as: UTF8.self)
  }
}
