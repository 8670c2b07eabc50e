import Foundation
import PackagePlugin

/// Embeds the package's top-level `Scenarios/*.yaml` into the target as generated Swift source, and
/// the target's own `Printed/*.swift` (the helpers `opsview code` prints, compiled in as well).
@main
struct EmbedScenariosPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let tool = try context.tool(named: "ScenarioEmbedder").url
    let scenarios = files(
      in: context.package.directoryURL.appending(path: "Scenarios"), ext: "yaml")
    let printed = files(in: target.directoryURL.appending(path: "Printed"), ext: "swift")
    let scenariosOut = context.pluginWorkDirectoryURL.appending(path: "EmbeddedScenarios.swift")
    let printedOut = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSources.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(scenarios.count) built-in scenarios",
        executable: tool,
        arguments: scenarios.map(\.path) + [scenariosOut.path],
        inputFiles: scenarios,
        outputFiles: [scenariosOut]
      ),
      .buildCommand(
        displayName: "Embedding \(printed.count) printed sources",
        executable: tool,
        arguments: ["--enum", "EmbeddedSources"] + printed.map(\.path) + [printedOut.path],
        inputFiles: printed,
        outputFiles: [printedOut]
      ),
    ]
  }

  private func files(in dir: URL, ext: String) -> [URL] {
    let all =
      (try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? []
    return all.filter { $0.pathExtension == ext }.sorted { $0.path < $1.path }
  }
}
