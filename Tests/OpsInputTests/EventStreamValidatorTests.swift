import OpsEngine
import OpsEvents
import Testing

@testable import OpsInput

/// The one validator of outside event streams: what the engine could have sent passes, anything a
/// fold would trip over is refused with a reason.
@Suite struct EventStreamValidatorTests {
  static let start: [EventKind] = [
    .queueAdded(queue: "q", maxConcurrent: 1, suspended: false, qos: .default),
    .operationAdded(
      operation: "a", queue: "q", priority: .normal, qos: .default, kind: .plain,
      dependencies: [], conditions: [], exclusivity: [], work: 1),
    .state(operation: "a", from: .initialized, to: .pending, cause: .added(queue: "q")),
    .state(operation: "a", from: .pending, to: .ready, cause: .noDependencies),
  ]

  /// The reason the last of `kinds` (numbered 1, 2, … at `times` or 0) is refused, or nil.
  static func refusal(_ kinds: [EventKind], times: [Double]? = nil, seqs: [Int]? = nil)
    -> String?
  {
    var validator = EventStreamValidator()
    for (i, kind) in kinds.enumerated() {
      let event = Event(seq: seqs?[i] ?? i + 1, time: times?[i] ?? 0, kind: kind)
      if let why = validator.check(event) { return "\(i + 1): \(why)" }
    }
    return nil
  }

  @Test func aSoundStreamPasses() {
    #expect(Self.refusal(Self.start) == nil)
  }

  @Test func aRepeatedTransitionIsRefused() {
    let why = Self.refusal(Self.start + [Self.start[3]])
    #expect(why == "5: 'a' moves from pending to ready, but it is ready")
  }

  @Test func statesNeverGoBack() {
    let back = Self.refusal(
      Self.start + [.state(operation: "a", from: .ready, to: .pending, cause: .noDependencies)])
    #expect(back == "5: 'a' cannot move from ready to pending: that is not a step of the lifecycle")
    let jump = Self.refusal(
      Self.start + [.state(operation: "a", from: .ready, to: .finished, cause: .workReturned)])
    #expect(jump?.contains("not a step of the lifecycle") == true)
  }

  @Test func duplicatedMissingAndShuffledSeqsAreRefused() {
    #expect(Self.refusal(Self.start, seqs: [1, 2, 2, 3])?.hasPrefix("3: event 2 again") == true)
    #expect(Self.refusal(Self.start, seqs: [1, 2, 4, 5])?.contains("an event is missing") == true)
    #expect(
      Self.refusal(Self.start, seqs: [2, 1, 3, 4])?.contains("where event 1 was due") == true)
  }

  @Test func unknownOperationsAndQueuesAreRefused() {
    #expect(
      Self.refusal([.queueResumed(queue: "nowhere")]) == "1: queue 'nowhere' was never added")
    #expect(Self.refusal([.didStart(operation: "ghost")]) == "1: operation 'ghost' was never added")
    #expect(Self.refusal(Self.start + [Self.start[1]]) == "5: operation 'a' is added a second time")
  }

  @Test func timesAreBoundedAndOrdered() {
    #expect(
      Self.refusal(Self.start, times: [0, 0, 9.3e15, 9.3e15])
        == "3: its time 9.3e+15 s is past the end of the clock (1000000000 s)")
    #expect(
      Self.refusal(Self.start, times: [0, 5, 4, 6])
        == "3: its time 4 s is before the previous event's 5 s: times never go back")
    #expect(Self.refusal(Self.start, times: [0, -1, 0, 0])?.contains("not a number") == true)
    #expect(Self.refusal(Self.start, times: [0, .nan, 0, 0])?.contains("nan") == true)
  }

  @Test func aHugeSlotIsRefused() {
    let why = Self.refusal(
      Self.start + [
        .state(
          operation: "a", from: .ready, to: .executing,
          cause: .started(queue: "q", slot: Int.max, limit: 1, after: nil))
      ])
    #expect(why?.contains("slot \(Int.max)") == true)
  }

  @Test func namesFollowTheTextPolicy() {
    let bidi = Self.refusal([
      .queueAdded(queue: "q\u{202E}", maxConcurrent: nil, suspended: false, qos: .default)
    ])
    #expect(bidi?.contains("bidirectional control U+202E in a queue name") == true)
    let blank = Self.refusal([
      .queueAdded(queue: " ", maxConcurrent: nil, suspended: false, qos: .default)
    ])
    #expect(blank == "1: a queue name cannot be blank (' ')")
    let csi = Self.refusal([
      .queueAdded(queue: "q\u{9B}2J", maxConcurrent: nil, suspended: false, qos: .default)
    ])
    #expect(csi?.contains("control character U+009B in a queue name") == true)
  }
}

/// A probe keeps only what its viewers have not taken: a viewer that comes late, or one the probe
/// dropped events for, gets a story with a gap. What the gap explains is skipped, not refused; what
/// no gap explains is refused as ever.
@Suite struct EventStreamValidatorGapTests {
  func judged(_ events: [(Int, EventKind)]) -> [EventStreamValidator.Verdict] {
    var validator = EventStreamValidator()
    return events.map { seq, kind in
      validator.resume(at: seq)
      return validator.judge(Event(seq: seq, time: 1, kind: kind))
    }
  }

  @Test func eventsAboutWhatCameBeforeTheGapAreSkipped() {
    let start = EventStreamValidatorTests.start
    let verdicts = judged([
      (1, start[0]), (2, start[1]), (3, start[2]),
      // Events 4–9 were let go: b was added then, and a moved on to ready.
      (10, .state(operation: "b", from: .pending, to: .ready, cause: .noDependencies)),
      (11, .state(operation: "a", from: .ready, to: .executing, cause: .noDependencies)),
      (12, start[1]),
    ])
    #expect(verdicts[0...2].allSatisfy { $0 == .accept })
    #expect(verdicts[3] == .skip)
    #expect(verdicts[4] == .skip)
    // Adding a again after the gap is no gap's doing: refused.
    guard case .refuse = verdicts[5] else {
      Issue.record("a second operationAdded of a was \(verdicts[5])")
      return
    }
  }

  @Test func withoutAGapNothingIsSkipped() {
    let start = EventStreamValidatorTests.start
    let verdicts = judged([
      (1, start[0]), (2, start[1]),
      (3, .state(operation: "a", from: .pending, to: .ready, cause: .noDependencies)),
    ])
    guard case .refuse = verdicts[2] else {
      Issue.record("an out-of-step transition without a gap was \(verdicts[2])")
      return
    }
  }
}
