import ArgumentParser
import OpsInput
import OpsScenarios

/// `opsview code`: the scenario as a runnable Swift program on Foundation's OperationQueue.
struct Code: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the scenario as a runnable Swift program using Foundation's OperationQueue.",
    discussion: """
      Queues, priorities, QoS, dependencies, limits, suspension, barriers and the scripted actions \
      are plain Foundation; the work is a small helper type written into the file (asynchronous, on a \
      scaled clock). What Foundation has no equivalent for (conditions, mutual exclusivity, groups) \
      is listed at the top with the ProcedureKit type it corresponds to.
      Run the output with: swiftc -O NAME.swift -o NAME && ./NAME [scale]
      """)

  @OptionGroup var source: ScenarioOptions

  @Option(help: "Real seconds per scenario second when the program runs without an argument.")
  var scale: Double = 0.1

  func validate() throws {
    if !(scale > 0 && scale <= 10) { throw ValidationError("--scale must be > 0 and <= 10") }
  }

  func run() throws {
    let s = try source.resolve()
    // Names and texts passed the loader's policy; the program's text passes the writers' one too.
    StandardOutput.write(Array(TextPolicy.escaped(SwiftProgram(s, scale: scale).source).utf8))
  }
}
