import Foundation
import OpsEngine
import OpsEvents
import OpsInput
import PropertyBased
import Testing

/// A viewer that missed events (it came late, or a probe dropped them) is caught up with the
/// events `StoryState.events(catchingUp:)` gives: they must fit in the seqs it missed, pass the
/// validator, leave it where the sender is, and let the events after them fold as they come.
@Suite struct StoryStateCatchUpTests {
  static func state(_ events: ArraySlice<Event>) -> StoryState {
    var s = StoryState()
    for e in events { s.apply(e) }
    return s
  }

  /// Folds `events[..<from]`, the catch-up to `events[..<to]` numbered into the seqs missed, then
  /// `events[to...]`; returns the first refusal, the state reached at `to`, and the projection.
  static func catchUp(_ events: [Event], from: Int, to: Int) -> (
    refusal: String?, reached: StoryState, projection: Projection
  ) {
    var validator = EventStreamValidator()
    var projection = Projection()
    var told = StoryState()
    for e in events[..<from] {
      if let why = validator.check(e) { return ("before the gap: \(why)", told, projection) }
      told.apply(e)
      projection.apply(e)
    }
    let target = state(events[..<to])
    let kinds = target.events(catchingUp: told)
    guard kinds.count <= to - from else {
      return ("\(kinds.count) events to catch up with \(to - from) missed", told, projection)
    }
    validator.resume(at: to - kinds.count + 1)
    validator.missedEvents()
    let time = to > 0 ? events[to - 1].time : 0
    for (i, kind) in kinds.enumerated() {
      let e = Event(seq: to - kinds.count + 1 + i, time: max(time, validator.lastTime), kind: kind)
      if let why = validator.check(e) { return ("catching up: \(kind): \(why)", told, projection) }
      told.apply(e)
      projection.apply(e)
    }
    let reached = told
    // What is left of an operation that finished unseen (its observers, its completion) is
    // skipped, as the viewer does; nothing is refused.
    for e in events[to...] {
      switch validator.judge(e) {
      case .accept: projection.apply(e)
      case .skip:
        if let o = e.kind.operation, reached.operations[o] != nil {
          return ("after the gap, event \(e.seq) \(e.kind) skipped", reached, projection)
        }
      case .refuse(let why):
        return ("after the gap, event \(e.seq) \(e.kind): \(why)", reached, projection)
      }
    }
    return (nil, reached, projection)
  }

  @Test func everyGapOfARandomRunIsCaughtUpWith() async {
    await propertyCheck(count: 150, input: RandomScenario.generator(maxOps: 16)) { scenario in
      let events = try scenario.runVirtual().events
      let n = events.count
      for (from, to) in [(0, n / 2), (n / 3, 2 * n / 3), (n / 4, n), (0, n), (n / 2, n / 2 + 1)]
      where from <= to {
        let (refusal, reached, projection) = Self.catchUp(events, from: from, to: to)
        #expect(refusal == nil, "\(from)..<\(to): \(refusal ?? "")\n\(scenario)")
        let target = Self.state(events[..<to])
        #expect(reached.operations.mapValues(\.state) == target.operations.mapValues(\.state))
        #expect(reached.queues == target.queues)
        // The board's fold ends where the full run ends.
        var full = Projection()
        for e in events { full.apply(e) }
        for name in target.operations.keys {
          #expect(projection.operation(named: name)?.state == full.operation(named: name)?.state)
        }
      }
    }
  }

  @Test func aSnapshotShowsUnfinishedOperationsInTheirStatesAndSaysItWasSampled() {
    var s = StoryState()
    let kinds: [EventKind] = [
      .queueAdded(queue: "q", maxConcurrent: 1, suspended: false, qos: .default),
      .queueSuspended(queue: "q"),
      .operationAdded(
        operation: "a", queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: nil),
      .operationAdded(
        operation: "b", queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: nil),
      .dependencyAdded(operation: "b", dependency: "a"),
      .state(operation: "a", from: .initialized, to: .pending, cause: .added(queue: "q")),
      .state(operation: "a", from: .pending, to: .ready, cause: .noDependencies),
      .state(operation: "a", from: .ready, to: .executing, cause: .sampled),
      .state(operation: "b", from: .initialized, to: .pending, cause: .added(queue: "q")),
      .cancelled(operation: "b", errors: [], cause: .command),
    ]
    for (i, k) in kinds.enumerated() { s.apply(Event(seq: i + 1, time: 1, kind: k)) }
    let snapshot = s.events(catchingUp: StoryState())
    #expect(
      snapshot.first == .queueAdded(queue: "q", maxConcurrent: 1, suspended: true, qos: .default))
    let addedB = snapshot.first {
      if case .operationAdded("b", _, _, _, _, _, _, _, _) = $0 { true } else { false }
    }
    guard case .operationAdded(_, _, _, _, _, let deps, _, _, _) = addedB else {
      Issue.record("\(snapshot)")
      return
    }
    #expect(deps == ["a"])
    #expect(snapshot.contains(.cancelled(operation: "b", errors: [], cause: .command)))
    let moves = snapshot.compactMap { k -> StateCause? in
      if case .state(_, _, _, let cause) = k { cause } else { nil }
    }
    #expect(moves.count == 4 && moves.allSatisfy { $0 == .sampled })
    #expect(snapshot.count < kinds.count)
  }
}
