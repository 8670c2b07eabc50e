import Foundation
import PropertyBased
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `Lint.eventTypes`: the publisher calls a lint only after the event types it names (every event
/// when it names none).
@Suite struct LintEventTypesTests {
  struct Counting: Lint {
    let kind = "counting"
    let summary = "counts its calls"
    let teaching = ""
    let eventTypes: Set<EventType>?
    let calls: Locked<[String]>
    mutating func check(after event: Event, in projection: Projection, _ out: inout LintOutput) {
      calls.withLock { $0.append(event.kind.type) }
    }
  }

  @Test func aLintIsCalledOnlyAfterTheTypesItNames() throws {
    let starts = Locked<[String]>([])
    let every = Locked<[String]>([])
    let rt = VirtualRuntime(
      lints: Lints.standard + [
        Counting(eventTypes: [.didStart, .cancelled], calls: starts),
        Counting(eventTypes: nil, calls: every),
      ])
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    try rt.addOperations(
      (0..<20).map {
        OperationSpec(
          name: "op\($0)", dependencies: $0 >= 4 ? ["op\($0 - 4)"] : [],
          work: WorkScript(duration: 0.1))
      })
    for i in 0..<20 { try rt.enqueue("op\(i)", on: "q") }
    rt.schedule(.cancel(operation: "op19"), at: 0.05)
    rt.run()
    let events = rt.events.map(\.kind.type)
    // Warnings are the publisher's own: no lint is called after them.
    #expect(every.value == events.filter { $0 != "warning" })
    #expect(starts.value == events.filter { $0 == "didStart" || $0 == "cancelled" })
    #expect(starts.value.contains("cancelled") && starts.value.contains("didStart"))
  }

  /// The publisher keeps the first 64 lints of each table as bits of a word and lists the others:
  /// every lint of a set of 70, wherever it sits, is called after exactly the events it names, in
  /// the order of the set.
  @Test func lintsBeyondTheSixtyFourthAreCalledToo() throws {
    let order = Locked<[Int]>([])
    struct Ordered: Lint {
      let kind = "ordered"
      let summary = "records its place in the set"
      let teaching = ""
      let place: Int
      let eventTypes: Set<EventType>?
      let order: Locked<[Int]>
      mutating func check(after event: Event, in projection: Projection, _ out: inout LintOutput) {
        order.withLock { $0.append(place) }
      }
    }
    // Odd places look only at starts, even ones at everything.
    let lints: [any Lint] = (0..<70).map {
      Ordered(place: $0, eventTypes: $0 % 2 == 1 ? [.didStart] : nil, order: order)
    }
    let rt = VirtualRuntime(lints: lints)
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([OperationSpec(name: "a", work: WorkScript(duration: 0.1))])
    try rt.enqueue("a", on: "q")
    rt.run()
    let expected = rt.events.flatMap { event in
      (0..<70).filter { $0 % 2 == 0 || event.kind.type == "didStart" }
    }
    #expect(order.value == expected)
    #expect(order.value.contains(69) && order.value.contains(68))
  }

  /// Whether a `state` event enters or leaves one of `states` (nil, or any other event: yes).
  static func concerns(_ event: Event, _ states: Set<OperationState>?) -> Bool {
    guard let states, case .state(_, let from, let to, _) = event.kind else { return true }
    return states.contains(from) || states.contains(to)
  }

  @Test func aLintIsCalledOnlyAfterTransitionsOfTheStatesItNames() throws {
    struct Transitions: Lint {
      let kind = "transitions"
      let summary = "records the transitions it is called after"
      let teaching = ""
      var eventTypes: Set<EventType>? { [.state, .didStart] }
      var states: Set<OperationState>? { [.ready] }
      let calls: Locked<[String]>
      mutating func check(after event: Event, in projection: Projection, _ out: inout LintOutput) {
        guard case .state(let o, let from, let to, _) = event.kind else {
          return calls.withLock { $0.append(event.kind.type) }
        }
        calls.withLock { $0.append("\(o) \(from.rawValue)>\(to.rawValue)") }
      }
    }
    let calls = Locked<[String]>([])
    let rt = VirtualRuntime(lints: [Transitions(calls: calls)])
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addOperations(
      ["a", "b"].map { OperationSpec(name: $0, work: WorkScript(duration: 0.1)) })
    for o in ["a", "b"] { try rt.enqueue(o, on: "q") }
    rt.run()
    let expected = rt.events.compactMap { event -> String? in
      switch event.kind {
      case .state(let o, let from, let to, _) where from == .ready || to == .ready:
        "\(o) \(from.rawValue)>\(to.rawValue)"
      case .didStart: "didStart"
      default: nil
      }
    }
    // Entering ready and leaving it, for each; other transitions are not its concern.
    #expect(calls.value == expected)
    #expect(expected.filter { $0.hasSuffix(">ready") }.count == 2)
    #expect(expected.filter { $0.contains(" ready>") }.count == 2)
  }

  /// A lint's types and states are all it needs: called after every event instead, each standard lint finds
  /// the same and asks for the same wake-up, on random workloads with suspensions, cancels and
  /// limit changes, over the full fold and over the live runtime's lean one.
  @Test func everyStandardLintNamesEveryTypeItNeeds() async {
    await propertyCheck(count: 120, input: RandomScenario.generator(maxOps: 16)) { scenario in
      let events = try scenario.runVirtual().events.filter { $0.kind.type != "warning" }
      for lean in [false, true] {
        var p = Projection(keepsHistory: !lean, keepsMembers: !lean, keepsDependents: !lean)
        var named = Lints.standard
        var every = Lints.standard
        for event in events {
          p.apply(event)
          for i in named.indices {
            var a = LintOutput()
            var b = LintOutput()
            if named[i].eventTypes?.contains(event.kind.eventType) ?? true,
              Self.concerns(event, named[i].states)
            {
              named[i].check(after: event, in: p, &a)
            }
            every[i].check(after: event, in: p, &b)
            #expect(a.findings.map(\.subject) == b.findings.map(\.subject), "\(named[i].kind)")
            #expect(
              named[i].nextDeadline(in: p) == every[i].nextDeadline(in: p),
              "\(named[i].kind) after \(event.kind.type) #\(event.seq)\n\(scenario)")
          }
        }
      }
    }
  }
}

/// `NeverFinishesLint` keeps deadlines of the minimum length in a queue and the others in a heap.
@Suite struct NeverFinishesDeadlineTests {
  /// Due together, they are raised in the order of their operations, wherever each was kept.
  @Test func deadlinesDueTogetherAreRaisedInOperationOrder() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    // Expected 2 s: flagged after 6 s (the heap). Expected 1 s: after the minimum, 5 s (the queue),
    // from 1 s for those that wait for the gate. Indices interleave the two.
    let heap = WorkScript(duration: 2, finishes: false)
    let queued = WorkScript(duration: 1, finishes: false)
    try rt.addOperations([
      OperationSpec(name: "h1", work: heap),
      OperationSpec(name: "m1", dependencies: ["gate"], work: queued),
      OperationSpec(name: "m2", dependencies: ["gate"], work: queued),
      OperationSpec(name: "h2", work: heap),
      OperationSpec(name: "gate", work: WorkScript(duration: 1)),
      OperationSpec(name: "early", work: queued),
    ])
    for o in ["h1", "m1", "m2", "h2", "gate", "early"] { try rt.enqueue(o, on: "q") }
    rt.run(until: 10)
    let raised = rt.events.compactMap { event -> String? in
      guard case .warning("neverFinishes", let subject, _) = event.kind else { return nil }
      return "\(subject)@\(event.time)"
    }
    #expect(raised == ["early@5.0", "h1@6.0", "m1@6.0", "m2@6.0", "h2@6.0"])
  }
}
