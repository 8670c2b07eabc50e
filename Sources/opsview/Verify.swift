import ArgumentParser
import OpsInput
import OpsScenarios

/// `opsview verify`: the scenario on this machine's Foundation OperationQueue against the engine.
struct Verify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Run the scenario's queue-level part on Foundation's OperationQueue and compare its starts with the engine's trace.",
    discussion: """
      Prints a row per instant at which operations start: the engine's time, Foundation's time \
      and the operations (= the same, ≠ different). Conditions, mutual exclusivity and groups have \
      no Foundation equivalent: those operations, and what depends on them or shares their queue, \
      are listed as not checked. Exit status 0 when they agree, 1 when they differ (the first \
      difference is named).
      """)

  @OptionGroup var source: ScenarioOptions

  @Option(
    help: "Real seconds per scenario second (larger is slower and more tolerant of a busy machine)."
  )
  var scale: Double = 0.1

  func validate() throws {
    if !(scale >= 0.01 && scale <= 10) {
      throw ValidationError("--scale must be between 0.01 and 10")
    }
  }

  func run() throws {
    let s = try source.resolve()
    // A run on Foundation takes real time: more than a moment is said first, never waited silently.
    let plan = Verification.plan(s, scale: scale)
    if plan.realSeconds > 3 {
      printError(
        "opsview: playing \(s.id) on Foundation's OperationQueue for about "
          + "\(Int(plan.realSeconds.rounded())) s of real time"
          + (plan.cut ? " (bounded: only the start of the scenario is compared)" : ""))
    }
    let v = Verification.run(s, scale: scale)
    print(TextPolicy.escaped(v.report), terminator: "")
    if !v.agrees { throw ExitCode(1) }
  }
}
