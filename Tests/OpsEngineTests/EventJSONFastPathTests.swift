import Testing

@testable import OpsEngine
@testable import OpsEvents

@Suite("Event JSON: the fast path writes what the general path writes")
struct EventJSONFastPathTests {
  static let causes: [StateCause] = [
    .added(queue: "q"), .noDependencies, .dependencyFinished("d\"x", of: 3), .queueResumed("q"),
    .conditionsSatisfied, .conditionFailed("c"), .cancelled(.command), .lockAcquired(category: "k"),
    .started(queue: "q", slot: 2, limit: nil, after: nil),
    .started(queue: "q", slot: 1, limit: 4, after: .slotFreed(by: "a")),
    .started(queue: "q", slot: 1, limit: 4, after: .limitRaised(to: nil)),
    .started(queue: "q", slot: 1, limit: 4, after: .resumed), .skippedMain, .workReturned,
    .workThrew("boom\n\u{1B}[2J"), .noticedCancel(.timeout, at: 1.250_001),
    .finishedAtOnce(.parent), .ranDespiteCancel, .childrenFinished(7), .observersNotified,
  ]

  static let kinds: [EventKind] =
    causes.map { .state(operation: "op", from: .ready, to: .executing, cause: $0) } + [
      .didStart(operation: "naïve \u{9B}"), .completion(operation: "c"),
      .cancelTooLate(operation: "t"),
      .willFinish(operation: "w", errors: [], cancelled: false),
      .didFinish(operation: "f", errors: ["e1", "e\"2"], cancelled: true),
      .queueSuspended(queue: "q"),
      .operationAdded(
        operation: "a", queue: "q", priority: .high, qos: .utility, kind: .async,
        dependencies: ["b", "c\"d"], conditions: ["ok"], exclusivity: [], work: 0.25),
      .operationAdded(
        operation: "g", queue: "q2", priority: .normal, qos: .default, kind: .group,
        dependencies: [], conditions: [], exclusivity: ["Alert", "x"], work: nil),
      .operationAdded(
        operation: "w", queue: "q", priority: .veryLow, qos: .background, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: 1_234.000_001),
    ]

  /// The one way seconds are written (the fast and the general path both use it).
  @Test func secondsInTheirShortestFormAtMicrosecondResolution() {
    let cases: [(Double, String)] = [
      (0, "0"), (1.5, "1.5"), (0.05, "0.05"), (0.000_001, "0.000001"), (2.125, "2.125"),
      (12.5, "12.5"), (98_765.432_1, "98765.4321"), (-1.5, "-1.5"), (0.000_000_4, "0"),
      (1_000_000, "1000000"), (3.100_000_2, "3.1"), (0.999_999_6, "1"),
    ]
    for (seconds, text) in cases {
      #expect(formatSeconds(seconds) == text, "\(seconds)")
    }
  }

  @Test(arguments: kinds)
  func sameBytes(kind: EventKind) {
    for (seq, time) in [(1, 0.0), (1_234_567, 12.5), (3, 0.000_001), (4, 98_765.432_1), (5, -1.5)] {
      let event = Event(seq: seq, time: time, kind: kind)
      var general: [UInt8] = Array(#"{"seq":\#(seq),"time":\#(formatSeconds(time)),"type":"#.utf8)
      JSONValue.writeString(kind.type, into: &general)
      event.appendFields(to: &general)
      general.append(UInt8(ascii: "}"))
      #expect(event.jsonLine == String(decoding: general, as: UTF8.self))
    }
  }
}
