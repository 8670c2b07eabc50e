import OpsEngine
import OpsEvents
import OpsTestSupport
import Testing

@testable import OpsScenarios

@Suite("opsview verify: the engine against this machine's Foundation OperationQueue")
struct VerificationTests {
  /// Every built-in but stress, whose starts are 0.05s apart: closer than a scaled real clock can
  /// tell apart (the table groups starts within the tolerance).
  static let scenarios = Catalog.names.filter { $0 != "stress" }

  @Test(arguments: scenarios)
  func foundationAgreesWithTheEngine(_ name: String) async throws {
    let scenario = try #require(Catalog.named(name))
    let v = await verifyAllowingLateness(scenario)
    #expect(v.agrees, "\(v.report)")
    if SwiftProgram(scenario).isQueueLevel && scenario.operations.allSatisfy(\.spec.work.finishes) {
      #expect(v.notChecked.isEmpty, "\(v.report)")
      #expect(!v.engine.groups.isEmpty)
    }
    #expect(v.report.contains("AGREE"))
  }

  @Test func aDeliberatelyWrongEngineSettingIsReportedWithItsFirstDifference() async throws {
    let scenario = try #require(Catalog.named("priorities"))
    var told = scenario
    // The engine is told the serial queue runs two at a time; Foundation runs it as written.
    told.queues[0].maxConcurrent = 2
    let wrong = told
    let v = await onOwnThread { Verification.run(scenario, engineScenario: wrong, scale: 0.2) }
    #expect(!v.agrees)
    #expect(
      v.firstDifference?.hasPrefix(
        "at 3s the engine starts fetch, prefetch, render, tap; Foundation starts prefetch, render, tap"
      ) == true,
      "\(v.firstDifference ?? "none")")
    #expect(v.report.contains("DIFFERENT: at 3s"))
    #expect(v.report.contains("≠"))
  }

  @Test func lateStartsAloneAreToldApartFromOtherDifferences() {
    func groups(_ starts: [(Double, [String])]) -> StartGroups {
      StartGroups(groups: starts.map { StartGroups.Group(time: $0.0, names: Set($0.1)) })
    }
    func verification(foundation: [(Double, [String])]) -> Verification {
      Verification(
        scenario: "deadlock",
        engine: groups([(0, ["unrelated"]), (12, ["validate"]), (14, ["parse"])]),
        foundation: groups(foundation), notChecked: [], scale: 0.2)
    }
    // The case seen here with both cores busy: the first start 1.4 s late, the rest on time.
    let late = verification(foundation: [
      (1.419, ["unrelated"]), (12.0, ["validate"]), (14, ["parse"]),
    ])
    #expect(!late.agrees && late.differsOnlyByLateness)
    #expect(late.report.contains("a difference that repeats is real"), "\(late.report)")
    // Not started before the run ended: possibly later still.
    #expect(
      verification(foundation: [(0, ["unrelated"]), (12, ["validate"])]).differsOnlyByLateness)
    // Earlier than the engine, or something the engine never starts: not lateness.
    let early = verification(foundation: [(0, ["unrelated"]), (11, ["validate"]), (14, ["parse"])])
    #expect(!early.agrees && !early.differsOnlyByLateness)
    #expect(!early.report.contains("a difference that repeats is real"))
    let extra = verification(foundation: [
      (0, ["unrelated"]), (12, ["validate"]), (14, ["parse"]), (15, ["report"]),
    ])
    #expect(!extra.agrees && !extra.differsOnlyByLateness)
    // Agreeing, or nothing started at all: not lateness either.
    #expect(
      !verification(foundation: [(0, ["unrelated"]), (12, ["validate"]), (14, ["parse"])])
        .differsOnlyByLateness)
    #expect(!verification(foundation: []).differsOnlyByLateness)
    // A late start that joined the group of an earlier one is still late, by its own time.
    let joined = Verification(
      scenario: "s", engine: groups([(0, ["a"]), (0.3, ["b"])]),
      foundation: StartGroups.grouped([(0.15, "a"), (0.3, "b")], tolerance: 0.3), notChecked: [],
      scale: 0.2)
    #expect(!joined.agrees && joined.differsOnlyByLateness, "\(joined.report)")
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
