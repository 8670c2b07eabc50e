import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// A moment's `expect:` claims: read with precise errors, and checked by playing the scenario.
@Suite("Moment claims: what a caption states is checked against the run")
struct MomentClaimTests {
  static let base = """
    queues: [{name: network, maxConcurrent: 2}]
    operations:
      - {name: a, work: 4}
      - {name: b, work: 8, checkEvery: 0.5}
      - {name: c, work: 3}
    actions:
      - {at: 1, cancel: b}
      - {at: 2, suspend: network}

    """

  @Test(arguments: Catalog.all.map(\.id))
  func everyBuiltInMomentStatesItsFactsAndTheyHold(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    for (i, m) in scenario.moments.enumerated() {
      #expect(!m.claims.isEmpty, "\(name) moment \(i + 1) states no facts: \(m.caption)")
    }
    #expect(scenario.momentProblems().map(\.description) == [])
    let (stops, _) = MomentRun.play(scenario.makeRuntime(), moments: scenario.playMoments)
    #expect(stops.map(\.moment) == Array(scenario.moments.indices), "every moment is reached")
  }

  @Test func theStarterOfOpsviewNewStatesItsFactsAndTheyHold() throws {
    let s = try parseScenario(StarterScenario.text(id: "lesson"))
    #expect(s.moments.allSatisfy { !$0.claims.isEmpty })
    #expect(s.momentProblems().map(\.description) == [])
  }

  @Test func claimsAreReadWithTheirPlaces() throws {
    let s = try parseScenario(
      Self.base + """
        moments:
          - action: 1
            caption: "suspended"
            expect:
              - {queue: network, suspended: true, limit: 2, executing: [a, c], ready: []}
              - {operation: b, state: finished, cancelled: true, finishesAt: 1.5, startsAt: 0}
              - {starts: []}
        """)
    let claims = try #require(s.moments.first?.claims)
    #expect(
      claims.map(\.claim) == [
        .queueSuspended(queue: "network", true), .queueLimit(queue: "network", 2),
        .queueExecuting(queue: "network", ["a", "c"]), .queueReady(queue: "network", []),
        .operationState(operation: "b", .finished), .operationCancelled(operation: "b", true),
        .operationFinishesAt(operation: "b", 1.5), .operationStartsAt(operation: "b", 0),
        .starts(queue: nil, []),
      ])
    #expect(claims[0].line == 13 && claims[0].path == "moments[0].expect[0].suspended")
    #expect(s.momentProblems().map(\.description) == [])
  }

  @Test func aClaimThatDoesNotHoldIsAnErrorAtItsPlace() throws {
    // The rehearsal's false caption: raising a limit "starts waiting work" when nothing waits.
    var scenario = try parseScenario(
      Self.base + """
        moments:
          - action: 1
            caption: "network suspended"
            expect:
              - {queue: network, ready: [c]}
              - {operation: b, state: executing}
        """)
    scenario.source = "lesson.yaml"
    #expect(
      scenario.momentProblems().map(\.description) == [
        "lesson.yaml:13:33: error: moment 1 claims \"ready and waiting on network: c\", but at "
          + "2.000s (event 24) found none",
        "lesson.yaml:14:31: error: moment 1 claims \"b is executing\", but at 2.000s (event 24) "
          + "it is finished",
      ])
  }

  @Test func anActionMomentIsCheckedAfterItsCommandsEffect() throws {
    // Before the command's step is shown whole, b is not cancelled yet.
    let s = try parseScenario(
      Self.base + """
        moments:
          - action: 0
            caption: "b is cancelled while executing and stops at its next check"
            expect: [{operation: b, state: executing, cancelled: true, finishesAt: 1.5}]
        """)
    #expect(s.momentProblems().map(\.description) == [])
  }

  @Test func unknownNamesAndKeysInClaimsAreReported() {
    let found = problems(
      Self.base + """
        moments:
          - at: 1
            caption: "x"
            expect:
              - {queue: netwrk, suspended: true}
              - {operation: b, state: redy}
              - {lock: Alert, holder: a}
              - {operation: a, suspnded: true}
              - {queue: network}
              - {queue: network, operation: a, state: ready}
        """
    ).map(\.description)
    #expect(
      found == [
        "test.yaml:13:17: error: unknown queue 'netwrk' at moments[0].expect[0].queue — did you mean 'network'?",
        "test.yaml:14:31: error: unknown state 'redy' at moments[0].expect[1].state; expected initialized, pending, evaluatingConditions, ready, executing, finishing or finished — did you mean 'ready'?",
        "test.yaml:15:16: error: unknown exclusivity category 'Alert' at moments[0].expect[2].lock",
        "test.yaml:16:24: error: unknown key 'suspnded' at moments[0].expect[3]; expected operation, state, cancelled, failed, cancelledAt, readyAt, startsAt or finishesAt",
        "test.yaml:17:9: error: a claim with nothing claimed at moments[0].expect[4]; expected suspended, limit, executing, ready or starts",
        "test.yaml:18:26: error: a claim has one subject, found 'queue' and 'operation' at moments[0].expect[5]",
      ])
  }
}

/// What Scenarios/README.md says of claims is what `opsview check` does.
@Suite("The claims documentation is checked against a run")
struct ClaimDocumentationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func theReadmesErrorExampleIsWhatCheckPrints() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("Scenarios/README.md"), encoding: .utf8)
    let tour = try String(
      contentsOf: Self.root.appendingPathComponent("Scenarios/tour.yaml"), encoding: .utf8)
    let claim = "      - {queue: network, limit: 3, executing: [fetchLikes, fetchStories, login]}"
    #expect(tour.contains(claim))
    let edited = tour.replacingOccurrences(
      of: claim, with: "      - {queue: network, ready: [login]}")
    let scenario = try ScenarioLoader.parse(edited, file: "tour.yaml", defaultID: "tour")
    let printed = try #require(scenario.momentProblems().first).description
    #expect(readme.contains("\n" + printed + "\n"), "\(printed)")
    // The README's example of a claim is the tour's own.
    #expect(readme.contains(claim.trimmingCharacters(in: .whitespaces)))
  }
}
