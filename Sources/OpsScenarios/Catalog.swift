import Foundation

/// The built-in scenarios, embedded from `Scenarios/*.yaml` at build time so `opsview` works from any
/// directory.
public enum Catalog {
  public static let defaultName = "tour"

  /// The order a workshop walks through them; anything else follows by name.
  static let teachingOrder = [
    "tour", "lifecycle", "serial-vs-concurrent", "priorities", "dependencies", "cancellation",
    "async-pitfalls", "conditions", "mutual-exclusivity", "groups-and-produced", "timeout",
    "deadlock", "stress",
  ]

  /// Every embedded file parsed once, keyed by file name (valid or not).
  private static let parsed: [(name: String, result: Result<Scenario, ScenarioError>)] =
    EmbeddedScenarios.files.map { file in
      let result = Result {
        try ScenarioLoader.parse(file.text, file: "builtin:\(file.name)", defaultID: file.name)
      }.mapError { $0 as? ScenarioError ?? ScenarioError(problems: []) }
      return (file.name, result)
    }.sorted { a, b in
      let ia = teachingOrder.firstIndex(of: a.name) ?? teachingOrder.count
      let ib = teachingOrder.firstIndex(of: b.name) ?? teachingOrder.count
      return (ia, a.name) < (ib, b.name)
    }

  /// The built-in scenarios that are valid, in teaching order. (An invalid one is reported by
  /// `resolve` and `check`, and by the catalogue test.)
  public static var all: [Scenario] { parsed.compactMap { try? $0.result.get() } }

  /// The names of all embedded files, valid or not, in teaching order.
  public static var names: [String] { parsed.map(\.name) }

  public static func named(_ name: String) -> Scenario? {
    if let entry = parsed.first(where: { $0.name == name }) { return try? entry.result.get() }
    return all.first { $0.id == name }
  }

  /// NAME of a built-in, or a PATH to a file: the CLI's argument rule. An argument with a `/` or a
  /// `.yaml`/`.yml`/`.json` extension is a path; otherwise a built-in name, or a file of that name if
  /// there is no such built-in. `builtin:NAME` names a built-in explicitly.
  /// `announce`: told what is awaited when the file is a FIFO nobody writes yet.
  /// A built-in by name, or a scenario file. `waitsForWriter: false` (reading again while the
  /// board plays) refuses a FIFO rather than block the board until something writes into it.
  public static func resolve(
    _ nameOrPath: String, announce: ((String) -> Void)? = nil, waitsForWriter: Bool = true
  ) throws -> Scenario {
    var name = nameOrPath
    let explicit = name.hasPrefix("builtin:")
    if explicit { name.removeFirst("builtin:".count) }
    let ext = URL(fileURLWithPath: name).pathExtension.lowercased()
    let looksLikePath = !explicit && (name.contains("/") || ["yaml", "yml", "json"].contains(ext))
    if !looksLikePath {
      if let entry = parsed.first(where: { $0.name == name }) { return try entry.result.get() }
      if let scenario = all.first(where: { $0.id == name }) { return scenario }
      if explicit || !FileProblem.isPresent(name) {
        throw ScenarioError(problems: [
          ScenarioProblem(
            file: nameOrPath,
            message: "no built-in scenario named '\(name)' and no such file ("
              + (names.isEmpty
                ? "there are no built-in scenarios" : "built-in: \(names.joined(separator: ", "))")
              + ")",
            suggestion: NearMiss.suggestion(for: name, among: names))
        ])
      }
    }
    return try ScenarioLoader.load(path: name, announce: announce, waitsForWriter: waitsForWriter)
  }
}
