import ArgumentParser
import OpsInput
import OpsScenarios

/// `opsview list`: the built-in scenarios.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the built-in scenarios, one per line: name and title.")

  func run() throws {
    let all = Catalog.all
    let width = all.map(\.id.count).max() ?? 0
    for s in all {
      let marker = s.id == Catalog.defaultName ? " (default)" : ""
      print(
        TextPolicy.escaped(
          s.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + s.title + marker,
          keepNewlines: false))
    }
  }
}
