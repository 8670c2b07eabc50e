import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

@Suite("Moments in scenario files: format and precise errors")
struct MomentLoaderTests {
  static let base = """
    queues: [{name: network}]
    operations:
      - {name: download, work: 2}
      - {name: resize, dependencies: [download]}
    actions:
      - {at: 1, suspend: network}
      - {at: 0.5, resume: network}

    """

  @Test func theThreeTriggersAreRead() throws {
    let s = try parseScenario(
      Self.base + """
        moments:
          - {at: 1.5, caption: "half way"}
          - when: {operation: resize, to: ready}
            caption: |
              `resize` is ready
              now.
          - {action: 0, caption: "suspended"}
        """)
    #expect(
      s.moments == [
        ScenarioMoment(trigger: .time(1.5), caption: "half way"),
        ScenarioMoment(
          trigger: .state(operation: "resize", to: .ready), caption: "`resize` is ready\nnow."),
        ScenarioMoment(trigger: .action(index: 0), caption: "suspended"),
      ])
    // Actions run by time: the one at 0.5s (index 1) runs first.
    #expect(s.actionOrdinal(ofAction: 0) == 1)
    #expect(s.actionOrdinal(ofAction: 1) == 0)
  }

  private func check(
    _ moments: String, _ expected: [ExpectedProblem],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let found = problems(Self.base + moments)
    #expect(found.count == expected.count, "\(found)", sourceLocation: sourceLocation)
    for (p, e) in zip(found, expected) {
      #expect(e.matches(p), "found \(p), expected \(e)", sourceLocation: sourceLocation)
    }
  }

  @Test func unknownOperationWithSuggestion() {
    check(
      "moments:\n  - {when: {operation: rezise, to: ready}, caption: x}\n",
      [
        .init(
          9, 24, "moments[0].when.operation",
          "unknown operation 'rezise' at moments[0].when.operation", suggestion: "resize")
      ])
  }

  @Test func unknownStateWithSuggestion() {
    check(
      "moments:\n  - {when: {operation: resize, to: redy}, caption: x}\n",
      [
        .init(
          9, 36, "moments[0].when.to",
          "unknown state 'redy' at moments[0].when.to; expected pending, evaluatingConditions, ready, executing, finishing or finished",
          suggestion: "ready")
      ])
  }

  @Test func actionIndexOutOfRange() {
    check(
      "moments:\n  - {action: 2, caption: x}\n",
      [
        .init(
          9, 14, "moments[0].action",
          "no action 2 at moments[0].action: the scenario has 2 actions (0 to 1)")
      ])
  }

  @Test func missingOrDoubleTriggerAndMissingCaption() {
    check(
      "moments:\n  - {caption: x}\n  - {at: 1, action: 0, caption: x}\n  - {at: 2}\n",
      [
        .init(
          9, 5, "moments[0]",
          "missing a trigger at moments[0]; expected one of 'at' (seconds), 'when' ({operation: NAME, to: STATE}) or 'action' (an index into actions)"
        ),
        .init(
          10, 13, "moments[1].action",
          "a moment has one trigger, found 'at' and 'action' at moments[1]"),
        .init(
          11, 5, "moments[2].caption",
          "missing 'caption' (the sentence the board shows) at moments[2]"),
      ])
  }

  @Test func unknownKeyAndNegativeTime() {
    check(
      "moments:\n  - {at: -1, caption: x, captoin: y}\n",
      [
        .init(
          9, 10, "moments[0].at", "expected a number of seconds >= 0 at moments[0].at, found -1"),
        .init(
          9, 26, "moments[0].captoin", "unknown key 'captoin' at moments[0]", suggestion: "caption"),
      ])
  }
}
