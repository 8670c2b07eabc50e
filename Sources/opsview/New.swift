import ArgumentParser
import Foundation
import OpsInput
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
    // The file's name without its extension (by hand: for Foundation ".yaml" has none).
    let file = (path as NSString).lastPathComponent
    let id = String(file.dropLast(file.hasSuffix(".yml") ? 4 : 5))
    // The name becomes the scenario's id, its title and the file's comments: the loader's rules
    // for a name apply, so the starter always checks (and nothing in it acts on a terminal).
    if let problem = TextPolicy.nameProblem(id) {
      printError("opsview: \(problem.description(what: "a scenario name")); nothing written")
      throw Exit.usage
    }
    // Created exclusively: an existing file (or a link planted under the name) is never written.
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      let code = errno
      switch code {
      case EEXIST: printError("opsview: \(path) already exists; nothing written")
      case ENOENT:
        let parent = (path as NSString).deletingLastPathComponent
        printError("opsview: cannot write \(path): the directory '\(parent)' does not exist")
      default: printError("opsview: cannot write \(path): \(String(cString: strerror(code)))")
      }
      throw Exit.scenarioError
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    do {
      try handle.write(contentsOf: Data(StarterScenario.text(id: id).utf8))
    } catch {
      unlink(path)
      printError("opsview: cannot write \(path): \(reasonText(error))")
      throw Exit.scenarioError
    }
    print(TextPolicy.escaped("wrote \(path): opsview play \(path)", keepNewlines: false))
  }
}
