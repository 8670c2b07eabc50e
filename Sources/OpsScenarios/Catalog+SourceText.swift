import Foundation

extension Catalog {
  /// The text a scenario was read from (the embedded file of a built-in, or the file itself), for a
  /// recording's header; nil when the file cannot be read now.
  public static func sourceText(of scenario: Scenario) -> String? {
    if scenario.source == ScenarioLoader.standardInputName {
      return ScenarioLoader.standardInputText.withLock { $0 }
    }
    if scenario.source.hasPrefix("builtin:") {
      let name = String(scenario.source.dropFirst("builtin:".count))
      return EmbeddedScenarios.files.first { $0.name == name }?.text
    }
    return try? String(contentsOfFile: scenario.source, encoding: .utf8)
  }
}
