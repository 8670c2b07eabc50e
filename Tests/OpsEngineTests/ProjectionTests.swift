import OpsEngine
import OpsEvents
import Testing

/// The one fold of events: causes as the engine stated them, the stuck judgement, and what the
/// projection says about conditions and progress.
@Suite struct ProjectionTests {
  @Test func theStuckJudgementSaysWhichKeyUnblocks() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    try rt.addQueue(QueueSpec(name: "closed", maxConcurrent: 0))
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      OperationSpec(name: "parked"), OperationSpec(name: "after", dependencies: ["parked"]),
      OperationSpec(name: "shut"),
      OperationSpec(name: "x", dependencies: ["y"]), OperationSpec(name: "y", dependencies: ["x"]),
      OperationSpec(name: "hangs", work: WorkScript(finishes: false)),
    ])
    for (o, q) in [
      ("parked", "held"), ("after", "q"), ("shut", "closed"), ("x", "q"), ("y", "q"),
      ("hangs", "q"),
    ] {
      try rt.enqueue(o, on: q)
    }
    rt.run()
    let p = rt.projection
    let reasons = Dictionary(
      uniqueKeysWithValues: p.stuckOperations().map { ($0.operation, $0.reason) })
    #expect(reasons["parked"] == .suspendedQueue("held"))
    #expect(reasons["after"] == .waitsFor("parked"))
    #expect(reasons["shut"] == .zeroLimit("closed"))
    #expect(reasons["hangs"] == .neverFinishes)
    if case .cycle = reasons["x"] {} else { Issue.record("x: \(String(describing: reasons["x"]))") }
    let summary = try #require(p.stuckSummary())
    #expect(summary.contains("2 wait for suspended held (s resumes)"))
    #expect(summary.contains("1 waits for a limit of 0 on closed (+ raises it)"))
    #expect(summary.contains("3 can never finish on their own"))
  }

  /// The count the suspended-queue lint tests before looking at any queue: a recording may repeat a
  /// suspension, and only a change of a queue's flag moves it.
  @Test func suspendedQueuesAreCountedByChangesOfTheirFlag() {
    var p = Projection()
    var counts: [Int] = []
    let kinds: [EventKind] = [
      .queueAdded(queue: "a", maxConcurrent: nil, suspended: true, qos: .default),
      .queueAdded(queue: "b", maxConcurrent: 1, suspended: false, qos: .default),
      .queueSuspended(queue: "b"), .queueSuspended(queue: "b"), .queueResumed(queue: "a"),
      .queueResumed(queue: "a"), .queueSuspended(queue: "unknown"), .queueResumed(queue: "b"),
    ]
    for (i, kind) in kinds.enumerated() {
      p.apply(Event(seq: i + 1, time: Double(i), kind: kind))
      counts.append(p.suspendedQueueCount)
    }
    #expect(counts == [1, 1, 2, 2, 1, 1, 1, 0])
  }

  /// The lints' fold keeps no member sets and no dependents: the same states and counts as the full
  /// fold, and each operation's own dependencies, nothing more.
  @Test func aFoldWithoutMembersKeepsTheSameStatesAndCounts() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 2)],
      operations: (0..<6).map { (op("o\($0)", work: 1, deps: $0 > 2 ? ["o0"] : []), "q") })
    rt.run(until: 1.5)
    var full = Projection()
    var lean = Projection(keepsHistory: false, keepsMembers: false, keepsDependents: false)
    for e in rt.events {
      full.apply(e)
      lean.apply(e)
    }
    #expect(full.members(of: "q").count == 4)
    #expect(full.executing(in: "q").map(\.name) == ["o2", "o3"])
    #expect(lean.members(of: "q").isEmpty && lean.executing(in: "q").isEmpty)
    #expect(lean.operations.map(\.state) == full.operations.map(\.state))
    #expect(lean.queues.map(\.counts) == full.queues.map(\.counts))
    #expect(lean.queues[0].operationCount == 4 && lean.executingCount == 2)
    #expect(full.operation(named: "o0")?.dependents == ["o3", "o4", "o5"])
    #expect(full.operation(named: "o3")?.finishedDependencies == 1)
    #expect(lean.operation(named: "o0")?.dependents == [])
    #expect(lean.operations.map(\.dependencies) == full.operations.map(\.dependencies))
  }

  @Test func conditionsNeverEvaluatedAreAbandonedNotWaiting() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(
        name: "share",
        conditions: [
          ConditionSpec(name: "fast", check: .scripted(result: .failed, error: "no"), evaluate: 1),
          ConditionSpec(name: "slow", evaluate: 5),
        ]))
    try rt.enqueue("share", on: "q")
    rt.run()
    let share = try #require(rt.projection.operation(named: "share"))
    #expect(share.state == .finished && share.cancelled)
    #expect(share.conditions.map(\.status) == [.failed, .abandoned])
    // The first failure decided at once, at 1s, not after the slow one.
    #expect(share.finishedAt == 1)
  }

  @Test func anAsyncOperationShowsNoProgressItCannotKnow() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "hangs", work: WorkScript(duration: 2, finishes: false)))
    try rt.enqueue("hangs", on: "q")
    rt.advance(by: 10)
    let hangs = try #require(rt.projection.operation(named: "hangs"))
    #expect(hangs.state == .executing)
    #expect(hangs.progress(at: 10) == nil)
  }

  @Test func cooperativeWorkThatNoticesTheCancelSaysSo() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "listen", work: WorkScript(duration: 10, checkEvery: 0.5)))
    try rt.enqueue("listen", on: "q")
    rt.schedule(.cancel(operation: "listen"), at: 2.2)
    rt.run()
    let last = try #require(
      rt.projection.operation(named: "listen")?.history.last { $0.state == .finishing })
    #expect(last.cause == .noticedCancel(.action, at: 2.5))
    #expect(last.time == 2.5)
  }

  @Test func flagsOverTimeFollowTheHistory() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(OperationSpec(name: "a", work: WorkScript(duration: 4, checkEvery: 1)))
    try rt.enqueue("a", on: "q")
    rt.schedule(.cancel(operation: "a"), at: 1.5)
    rt.run()
    let a = try #require(rt.projection.operation(named: "a"))
    #expect(a.flags(at: 1) == OperationFlags(state: .executing, cancelled: false))
    #expect(a.flags(at: 1.5) == OperationFlags(state: .executing, cancelled: true))
    #expect(a.flags(at: 2) == OperationFlags(state: .finished, cancelled: true))
  }
}

/// The lint added with the event contract: one file (`CancelledOnSuspendedQueueLint.swift`), one line
/// in `Lints.standard`, and this test.
@Suite struct CancelledOnSuspendedQueueLintTests {
  @Test func cancellingOnASuspendedQueueWarnsOnce() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "gate", suspended: true))
    try rt.addOperations([
      OperationSpec(name: "early"), OperationSpec(name: "next", dependencies: ["early"]),
    ])
    try rt.enqueue("early", on: "gate")
    try rt.enqueue("next", on: "gate")
    rt.schedule(.cancel(operation: "early"), at: 1)
    rt.schedule(.resume(queue: "gate"), at: 3)
    rt.run()
    let warnings = rt.projection.warnings.filter { $0.kind == "cancelledOnSuspendedQueue" }
    #expect(warnings.map(\.subject) == ["early"])
    #expect(warnings.first?.time == 1)
    #expect(warnings.first?.message.contains("until the queue is resumed") == true)
    // And it was true: early finished only when the queue resumed.
    #expect(rt.projection.operation(named: "early")?.finishedAt == 3)
  }

  @Test func cancellingOnARunningQueueDoesNot() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addOperations([OperationSpec(name: "a"), OperationSpec(name: "b")])
    try rt.enqueue("a", on: "q")
    try rt.enqueue("b", on: "q")
    rt.schedule(.cancel(operation: "b"), at: 0.5)
    rt.run()
    #expect(!rt.projection.warnings.contains { $0.kind == "cancelledOnSuspendedQueue" })
  }
}
