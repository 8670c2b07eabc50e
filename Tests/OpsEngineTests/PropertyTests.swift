import OpsEngine
import OpsEvents
import PropertyBased
import Testing

extension RandomScenario {
  /// Builds the scenario on the virtual runtime, interventions at their times, everything released at
  /// t = 100 (after every intervention), and runs it to the end.
  func runVirtual() throws -> VirtualRuntime {
    let rt = VirtualRuntime()
    for q in queueSpecs { try rt.addQueue(q) }
    try rt.addOperations(specs(scale: 0.1))
    for i in ops.indices { try rt.enqueue(name(i), on: queueName(ops[i].queue)) }
    for v in interventions { rt.schedule(command(v), at: Double(v.tenths) / 10) }
    for c in releaseEverything { rt.schedule(c, at: 100) }
    rt.run()
    return rt
  }
}

/// Invariants over random DAGs, priorities, work and interventions, on the virtual runtime.
@Suite struct VirtualPropertyTests {
  @Test func randomWorkloadsKeepEveryInvariant() async {
    await propertyCheck(count: 300, input: RandomScenario.generator(maxOps: 20)) { scenario in
      let rt = try scenario.runVirtual()
      let problems = EventInvariants(exclusivity: scenario.exclusivity).violations(in: rt.events)
      #expect(problems.isEmpty, "\(problems.prefix(8).joined(separator: "\n"))\n\(scenario)")
    }
  }

  @Test func theSameInputGivesAByteIdenticalStream() async {
    await propertyCheck(count: 50, input: RandomScenario.generator(maxOps: 20)) { scenario in
      let first = try scenario.runVirtual().events.map(\.jsonLine)
      let second = try scenario.runVirtual().events.map(\.jsonLine)
      #expect(first == second)
      #expect(!first.isEmpty)
    }
  }

  /// The checker itself must catch broken streams, or the properties above prove nothing.
  @Test func theCheckerRejectsBrokenStreams() throws {
    let scenario = RandomScenario(
      queues: [.init(limit: 1, suspended: false)],
      ops: (0..<3).map { i in
        .init(
          queue: 0, priority: 2, tenths: 5, dependencyBits: i == 2 ? 0b1 : 0, exclusive: 7, mode: 0,
          condition: 0,
          timeout: 0, qos: 4)
      }, interventions: [])
    let events = try scenario.runVirtual().events
    let checker = EventInvariants(exclusivity: scenario.exclusivity)
    #expect(checker.violations(in: events).isEmpty)
    // Dropping a finish breaks the sequence and leaves an operation unfinished.
    let lastFinish = try #require(
      events.lastIndex { if case .didFinish = $0.kind { true } else { false } })
    var dropped = events
    dropped.remove(at: lastFinish)
    #expect(checker.violations(in: dropped).contains("op2 never finished (state finished)"))
    // Observers out of order.
    var swapped = events
    swapped.swapAt(lastFinish, lastFinish - 2)
    #expect(
      checker.violations(in: swapped).contains { $0.contains("didFinish without willFinish") })
    // Two operations executing at once on a serial queue, sharing a category.
    let overlapping = [
      Event(
        seq: 1, time: 0,
        kind: .queueAdded(queue: "q", maxConcurrent: 1, suspended: false, qos: .default)),
      Event(
        seq: 2, time: 0,
        kind: .operationAdded(
          operation: "a", queue: "q", priority: .normal, qos: .default, kind: .plain,
          dependencies: [], conditions: [], exclusivity: [], work: 1)),
      Event(
        seq: 3, time: 0,
        kind: .operationAdded(
          operation: "b", queue: "q", priority: .normal, qos: .default, kind: .plain,
          dependencies: ["a"], conditions: [], exclusivity: [], work: 1)),
      Event(
        seq: 4, time: 0,
        kind: .state(operation: "a", from: .initialized, to: .pending, cause: .noDependencies)),
      Event(
        seq: 5, time: 0,
        kind: .state(operation: "a", from: .pending, to: .ready, cause: .noDependencies)),
      Event(
        seq: 6, time: 0,
        kind: .state(operation: "a", from: .ready, to: .executing, cause: .noDependencies)),
      Event(
        seq: 7, time: 0,
        kind: .state(operation: "b", from: .initialized, to: .pending, cause: .noDependencies)),
      Event(
        seq: 8, time: 0,
        kind: .state(operation: "b", from: .pending, to: .ready, cause: .noDependencies)),
      Event(
        seq: 9, time: 0,
        kind: .state(operation: "b", from: .ready, to: .executing, cause: .noDependencies)),
    ]
    let found = EventInvariants(exclusivity: ["a": ["x"], "b": ["x"]], requireAllFinished: false)
      .violations(in: overlapping)
    #expect(found.contains { $0.contains("limit 1") })
    #expect(found.contains { $0.contains("before its dependency a finished") })
    #expect(found.contains { $0.contains("while a holds x") })
    #expect(found.contains { $0.contains("b skips evaluatingConditions") })
  }

  /// A reclaimer takes its slot when it asks again for its lock (X10), and the deadlock this can end
  /// in is accepted only while the queue is full of reclaimers.
  @Test func theCheckerCountsReclaimedSlotsAndKnowsTheirDeadlock() throws {
    let exclusive = { (x: Int) in
      RandomScenario.Op(
        queue: 0, priority: 2, tenths: 0, dependencyBits: 0, exclusive: x, mode: 0, condition: 0,
        timeout: 0, qos: 4)
    }
    let scenario = RandomScenario(
      queues: [.init(limit: 0, suspended: false)], ops: [exclusive(7), exclusive(8), exclusive(9)],
      interventions: [.init(tenths: 0, kind: 2, target: 0, value: 0)])
    let events = try scenario.runVirtual().events
    let checker = EventInvariants(exclusivity: scenario.exclusivity)
    #expect(checker.violations(in: events).isEmpty)
    // The same stream with the release's limit of 2 read as 3: a free slot, so not a deadlock.
    let roomy = events.map { e in
      guard case .queueMaxConcurrent(let q, 2?) = e.kind else { return e }
      return Event(seq: e.seq, time: e.time, kind: .queueMaxConcurrent(queue: q, value: 3))
    }
    #expect(checker.violations(in: roomy).contains("op2 never finished (state ready)"))
    // Read as 1, the second reclaimer takes a slot beyond the limit.
    let tight = events.map { e in
      guard case .queueMaxConcurrent(let q, 2?) = e.kind else { return e }
      return Event(seq: e.seq, time: e.time, kind: .queueMaxConcurrent(queue: q, value: 1))
    }
    #expect(checker.violations(in: tight).contains { $0.contains("op1 started with 1 executing") })
  }
}

/// Folds the events of 120 random workloads one at a time and calls `check` after each, with the
/// projection, the event, the projection's operations and the workload.
func afterEveryEventOfRandomWorkloads(
  _ check: @escaping @Sendable (Projection, Event, [OperationInfo], RandomScenario) -> Void
) async {
  await propertyCheck(count: 120, input: RandomScenario.generator(maxOps: 16)) { scenario in
    var p = Projection()
    for event in try scenario.runVirtual().events {
      p.apply(event)
      check(p, event, Array(p.operations), scenario)
    }
  }
}

/// Each queue's reclaiming count (slots held by started operations asking again for a lock) equals a
/// scan of its operations after every event, and such an operation is ready.
@Suite struct ReclaimedSlotTests {
  @Test func reclaimingCountsEqualAScanAfterEveryEvent() async {
    await afterEveryEventOfRandomWorkloads { p, event, ops, scenario in
      for q in p.queues {
        let scan = ops.filter { $0.queue == q.name && $0.reclaiming }
        #expect(q.reclaiming == scan.count, "after \(event)\n\(scenario)")
        // Between its lock and its start (one instant) it waits for nothing more.
        #expect(scan.allSatisfy { $0.state == .ready })
      }
    }
  }
}

/// The projection's trait counts (which the board's table reads instead of scanning every operation)
/// equal a scan of the operations after every event.
@Suite struct OperationTraitsTests {
  @Test func countsEqualAScanAfterEveryEvent() async {
    await afterEveryEventOfRandomWorkloads { p, event, ops, scenario in
      let scan = OperationTraitsTests.scan(ops)
      #expect(
        [
          p.traits.priority, p.traits.qos, p.traits.dependencies, p.traits.conditions,
          p.traits.errors, p.traits.cancelled,
        ]
          == scan, "after \(event.jsonLine)\n\(scenario)")
    }
  }

  @Test func errorsClearedByAFinishAreNoLongerCounted() throws {
    var p = Projection()
    let kinds: [EventKind] = [
      .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default),
      .operationAdded(
        operation: "a", queue: "q", priority: .high, qos: .utility, kind: .plain, dependencies: [],
        conditions: [], exclusivity: [], work: 1),
      .dependencyAdded(operation: "a", dependency: "b"),
      .cancelled(operation: "a", errors: ["stop"], cause: .command),
      .didFinish(operation: "a", errors: [], cancelled: true),
    ]
    var counts: [[Int]] = []
    for (i, kind) in kinds.enumerated() {
      p.apply(Event(seq: i + 1, time: 0, kind: kind))
      counts.append([
        p.traits.priority, p.traits.qos, p.traits.dependencies, p.traits.errors, p.traits.cancelled,
      ])
    }
    // The errors go with the finish; the cancellation stays.
    #expect(
      counts == [
        [0, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 1, 0, 1],
      ])
  }

  static func scan(_ ops: [OperationInfo]) -> [Int] {
    [
      ops.filter { $0.priority != .normal }.count, ops.filter { $0.qos != .default }.count,
      ops.filter { !$0.dependencies.isEmpty }.count, ops.filter { !$0.conditions.isEmpty }.count,
      ops.filter { !$0.errors.isEmpty }.count, ops.filter(\.cancelled).count,
    ]
  }
}
