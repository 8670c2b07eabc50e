import Foundation
import PackagePlugin

/// Embeds the package's top-level `Scenarios/*.yaml` into the target as generated Swift source.
@main
struct EmbedScenariosPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let dir = context.package.directoryURL.appending(path: "Scenarios")
    let files = (try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? []
    let inputs = files.filter { $0.pathExtension == "yaml" }.sorted { $0.path < $1.path }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedScenarios.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(inputs.count) built-in scenarios",
        executable: try context.tool(named: "ScenarioEmbedder").url,
        arguments: inputs.map(\.path) + [output.path],
        inputFiles: inputs,
        outputFiles: [output]
      )
    ]
  }
}
