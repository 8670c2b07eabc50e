import ArgumentParser
import Foundation
import OpsScenarios

/// `opsview new`: a commented starter scenario to edit.
struct New: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a commented starter scenario, NAME.yaml, to edit and play.",
    discussion: "Refuses to overwrite an existing file. Then: opsview play NAME.yaml")

  @Argument(
    help: "The scenario's name; the file is NAME.yaml (or NAME itself if it ends in .yaml).")
  var name: String

  func run() throws {
    let path = name.hasSuffix(".yaml") || name.hasSuffix(".yml") ? name : name + ".yaml"
    let id = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    if FileManager.default.fileExists(atPath: path) {
      printError("opsview: \(path) already exists; nothing written")
      throw Exit.scenarioError
    }
    do {
      try StarterScenario.text(id: id).write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      printError("opsview: cannot write \(path): \(error)")
      throw Exit.scenarioError
    }
    print("wrote \(path): opsview play \(path)")
  }
}
