import OpsEngine
import Testing

@testable import OpsScenarios

@Suite("opsview verify: the engine against this machine's Foundation OperationQueue")
struct VerificationTests {
  /// Every built-in but stress, whose starts are 0.05s apart: closer than a scaled real clock can
  /// tell apart (the table groups starts within the tolerance).
  static let scenarios = Catalog.names.filter { $0 != "stress" }

  @Test(arguments: scenarios)
  func foundationAgreesWithTheEngine(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    var v = Verification.run(scenario, scale: 0.2)
    if !v.agrees {
      // Foundation runs on the real clock: on a loaded machine a start can come later than the
      // tolerance (60 ms at this scale). A disagreement in semantics repeats; lateness rarely does.
      v = Verification.run(scenario, scale: 0.2)
    }
    #expect(v.agrees, "\(v.report)")
    if SwiftProgram(scenario).isQueueLevel && scenario.operations.allSatisfy(\.spec.work.finishes) {
      #expect(v.notChecked.isEmpty, "\(v.report)")
      #expect(!v.engine.groups.isEmpty)
    }
    #expect(v.report.contains("AGREE"))
  }

  @Test func aDeliberatelyWrongEngineSettingIsReportedWithItsFirstDifference() throws {
    let scenario = try #require(Catalog.named("priorities"))
    var wrong = scenario
    // The engine is told the serial queue runs two at a time; Foundation runs it as written.
    wrong.queues[0].maxConcurrent = 2
    let v = Verification.run(scenario, engineScenario: wrong, scale: 0.2)
    #expect(!v.agrees)
    #expect(
      v.firstDifference?.hasPrefix(
        "at 3s the engine starts fetch, prefetch, render, tap; Foundation starts prefetch, render, tap"
      ) == true,
      "\(v.firstDifference ?? "none")")
    #expect(v.report.contains("DIFFERENT: at 3s"))
    #expect(v.report.contains("≠"))
  }

  @Test func whatFoundationLacksIsListedAsNotChecked() throws {
    let tour = try #require(Catalog.named("tour"))
    let skipped = Dictionary(
      uniqueKeysWithValues: Verification.notCheckable(tour).map { ($0.operation, $0.reason) })
    #expect(skipped["upload"] == "conditions (loggedIn)")
    #expect(skipped["banner"] == "mutual exclusivity (Alert)")
    #expect(skipped["decode"] == "depends on download, which is not checked")
    #expect(skipped["warmCache"] == nil)  // images has no limit: the others cannot take its slots
  }
}
