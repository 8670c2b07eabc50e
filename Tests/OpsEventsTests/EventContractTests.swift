import Foundation
import Testing

@testable import OpsEvents

/// The event contract, whole: a sample of every event type and every cause goes through every
/// encoder and decoder and comes back as it was. The samples are chosen by exhaustive switches, so a
/// new event type or cause does not compile until it has one here.
@Suite("Event contract: every type and every cause round-trips through every encoding")
struct EventContractTests {
  static func sample(_ type: EventType) -> [EventKind] {
    switch type {
    case .queueAdded:
      [
        .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default),
        .queueAdded(queue: "q2", maxConcurrent: 2, suspended: true, qos: .utility),
      ]
    case .queueSuspended: [.queueSuspended(queue: "q")]
    case .queueResumed: [.queueResumed(queue: "q")]
    case .queueMaxConcurrent:
      [.queueMaxConcurrent(queue: "q", value: 1), .queueMaxConcurrent(queue: "q", value: nil)]
    case .operationAdded:
      [
        .operationAdded(
          operation: "a", queue: "q", priority: .high, qos: .utility, kind: .async,
          dependencies: ["b", "c\"d"], conditions: ["ok"], exclusivity: ["Alert"], work: 0.25),
        .operationAdded(
          operation: "g", queue: "q", priority: .normal, qos: .default, kind: .group,
          dependencies: [], conditions: [], exclusivity: [], work: nil),
      ]
    case .dependencyAdded: [.dependencyAdded(operation: "a", dependency: "b")]
    case .state:
      CauseKind.allCases.flatMap(sample).map {
        .state(operation: "a", from: .ready, to: .executing, cause: $0)
      }
    case .conditionWaiting: [.conditionWaiting(operation: "a", condition: "c", dependency: "b")]
    case .conditionStarted: [.conditionStarted(operation: "a", condition: "c")]
    case .conditionResult:
      [
        .conditionResult(operation: "a", condition: "c", result: .satisfied, error: nil),
        .conditionResult(operation: "a", condition: "c", result: .failed, error: "no"),
      ]
    case .exclusivityWaiting: [.exclusivityWaiting(operation: "a", category: "x", holder: "b")]
    case .exclusivityAcquired: [.exclusivityAcquired(operation: "a", category: "x")]
    case .exclusivityReleased: [.exclusivityReleased(operation: "a", category: "x")]
    case .cancelled: [.cancelled(operation: "a", errors: ["e"], cause: .timeout)]
    case .cancelTooLate: [.cancelTooLate(operation: "a")]
    case .didStart: [.didStart(operation: "a")]
    case .didProduce: [.didProduce(operation: "a", produced: "b")]
    case .willFinish: [.willFinish(operation: "a", errors: [], cancelled: true)]
    case .didFinish: [.didFinish(operation: "a", errors: ["e1", "e\"2"], cancelled: false)]
    case .completion: [.completion(operation: "a")]
    case .cycleDetected: [.cycleDetected(operations: ["a", "b"])]
    case .command:
      [
        .command(command: "cancel", target: "a", value: nil, source: .key),
        .command(command: "maxConcurrent", target: "q", value: "3", source: .api),
      ]
    case .warning: [.warning(kind: "starved", subject: "a", message: "m")]
    case .refused: [.refused(operation: "a", reason: "r")]
    }
  }

  static func sample(_ kind: CauseKind) -> [StateCause] {
    switch kind {
    case .added: [.added(queue: "q")]
    case .noDependencies: [.noDependencies]
    case .dependencyFinished: [.dependencyFinished("d", of: 1), .dependencyFinished("d", of: 3)]
    case .queueResumed: [.queueResumed("q")]
    case .conditionsSatisfied: [.conditionsSatisfied]
    case .conditionFailed: [.conditionFailed("c")]
    case .cancelled: [.cancelled(.command)]
    case .lockAcquired: [.lockAcquired(category: "x")]
    case .started:
      [
        .started(queue: "q", slot: 1, limit: nil, after: nil),
        .started(queue: "q", slot: 2, limit: 2, after: .slotFreed(by: "b")),
        .started(queue: "q", slot: 1, limit: 4, after: .limitRaised(to: nil)),
        .started(queue: "q", slot: 1, limit: 1, after: .resumed),
      ]
    case .skippedMain: [.skippedMain]
    case .workReturned: [.workReturned]
    case .workThrew: [.workThrew("boom")]
    case .noticedCancel: [.noticedCancel(.timeout, at: 1.25)]
    case .finishedAtOnce: [.finishedAtOnce(.parent)]
    case .ranDespiteCancel: [.ranDespiteCancel]
    case .childrenFinished: [.childrenFinished(3)]
    case .observersNotified: [.observersNotified]
    case .sampled: [.sampled]
    }
  }

  static let events: [Event] = EventType.allCases.flatMap(sample).enumerated().map {
    Event(seq: $0.offset + 1, time: Double($0.offset) * 0.5, kind: $0.element)
  }

  @Test func eachSampleIsOfItsTypeAndCause() {
    for type in EventType.allCases {
      for kind in Self.sample(type) { #expect(kind.eventType == type) }
    }
    for kind in CauseKind.allCases {
      for cause in Self.sample(kind) { #expect(cause.causeKind == kind) }
    }
  }

  @Test func namesAreUniqueAndReadBack() {
    #expect(Set(EventType.allCases.map(\.name)).count == EventType.allCases.count)
    #expect(Set(CauseKind.allCases.map(\.name)).count == CauseKind.allCases.count)
    for t in EventType.allCases { #expect(EventType(name: t.name) == t) }
    for k in CauseKind.allCases { #expect(CauseKind(name: k.name) == k) }
    #expect(EventType(name: "nope") == nil)
    #expect(CauseKind(name: "nope") == nil)
  }

  /// The JSONL line (its fast path where it has one), read back by the decoder every reader uses.
  @Test(arguments: events) func jsonLineRoundTrips(_ event: Event) throws {
    let line = event.jsonLine
    #expect(line.contains("\"type\":\"\(event.kind.type)\""))
    let back = try JSONDecoder().decode(Event.self, from: Data(line.utf8))
    #expect(back == event)
    // The fast path, where it writes the event, writes the general path's bytes.
    var fast: [UInt8] = []
    if event.appendFrequentFields(to: &fast) {
      var general: [UInt8] = []
      event.appendFields(to: &general)
      #expect(fast == general)
    }
  }

  /// `Codable` through Foundation's encoder: the same shape, so the same event back.
  @Test(arguments: events) func codableRoundTrips(_ event: Event) throws {
    let data = try JSONEncoder().encode(event)
    #expect(try JSONDecoder().decode(Event.self, from: data) == event)
  }

  /// The words: the text trace's line names the subject and says the summary, and both are
  /// non-empty for every type and cause.
  @Test(arguments: events) func textSaysSomethingAboutItsSubject(_ event: Event) {
    let summary = event.kind.summary
    #expect(!summary.isEmpty)
    #expect(!event.kind.subject.isEmpty)
    let line = TextTrace(names: ["a", "q"]).line(event)
    #expect(line.contains(event.kind.subject))
    #expect(line.contains(summary))
    if case .state(_, _, _, let cause) = event.kind { #expect(!cause.text.isEmpty) }
  }
}
