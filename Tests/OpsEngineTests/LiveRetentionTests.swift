import Foundation
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `LiveRetention`: finished operations beyond the limit are forgotten by name, the events are not.
@Suite struct LiveRetentionTests {
  @Test func theOldestFinishedOperationsAreForgottenAndSaySo() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 3))
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    for i in 0..<10 { try rt.addOperation(live("op\(i)"), work: .sync { _ in }, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    for i in 0..<7 { #expect(rt.state(of: "op\(i)") == nil, "op\(i) should be retired") }
    for i in 7..<10 { #expect(rt.state(of: "op\(i)") == .finished) }
    // A command on a retired operation is rejected, naming the retention.
    guard case .rejected(let why) = rt.perform(.cancel(operation: "op0")) else {
      Issue.record("cancelling a retired operation was applied")
      return
    }
    #expect(why.contains("no operation named 'op0'") && why.contains("retention"))
    #expect(throws: EngineError.unknownOperation("op0")) {
      try rt.addOperation(live("late", deps: ["op0"]), work: .none, on: "q")
    }
    // Every event was published: a subscriber's projection has all ten, finished.
    var projection = Projection()
    for event in log.events { projection.apply(event) }
    #expect(projection.operations.count == 10)
    #expect(projection.operations.allSatisfy { $0.state == .finished })
    #expect(log.finishOrder == (0..<10).map { "op\($0)" })
  }

  @Test func anOperationIsKeptWhileADependentHasNotFinished() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 0))
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    // a is declared first and enqueued last: with nothing kept, a finished a could go before b names it.
    try rt.addOperation(live("a"), work: .sync { _ in })
    try rt.addOperation(live("b", deps: ["a"]), work: .sync { _ in }, on: "held")
    try rt.enqueue("a", on: "q")
    #expect(rt.waitUntilFinished(["a"], timeout: liveTimeout))
    // b still waits for its queue: a is remembered, so b's readiness can read it.
    #expect(rt.state(of: "a") == .finished)
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    // Once b finished, both go (a was tried again then).
    #expect(rt.state(of: "a") == nil)
    #expect(rt.state(of: "b") == nil)
  }

  @Test func theLintsForgetWhatTheRuntimeRetired() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 0))
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    for i in 0..<600 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let retired = (0..<600).filter { rt.state(of: "op\($0)") == nil }
    #expect(retired.count > 512, "the runtime retired only \(retired.count)")
    let p = rt.lintProjection
    // Every operation the runtime forgot, the lints' projection forgot too (and, these having
    // succeeded, it may have forgotten the others already: see the next test).
    #expect(p.knownOperationCount <= 600 - retired.count)
    for i in retired { #expect(p.operation(named: "op\(i)") == nil) }
    for i in 0..<600 where p.operation(named: "op\(i)") != nil {
      #expect(!retired.contains(i) && p.operation(named: "op\(i)")?.state == .finished)
    }
    // Positions stay: a forgotten record reads as finished and nameless.
    #expect(p.operations.count == 600 && p.unfinishedCount == 0)
    #expect(p.operations[retired[0]].name.isEmpty && p.operations[retired[0]].state == .finished)
    // The subscriber still got every event.
    #expect(log.finishOrder.count == 600)
  }

  /// With a bounded retention the lints forget an operation that succeeded as soon as nothing
  /// unfinished needs it, though the runtime still knows it by name; a failed or cancelled one they
  /// keep while the runtime does, so a dependent added later is still warned about.
  @Test func theLintsForgetSucceededOperationsBeforeTheRetentionDoes() throws {
    struct Failure: Error {}
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 10_000))
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    try rt.addOperation(live("bad"), work: .sync { _ in throw Failure() }, on: "q")
    try rt.addOperation(live("dropped"), work: .none, on: "held")
    #expect(rt.perform(.cancel(operation: "dropped")) == .applied)
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    for i in 0..<600 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    rt.flushDeliveries()
    // The runtime knows all of them; the lints only what a dependent could need to read.
    for i in 0..<600 { #expect(rt.state(of: "op\(i)") == .finished) }
    let p = rt.lintProjection
    let known = (0..<600).filter { p.operation(named: "op\($0)") != nil }
    #expect(known.count < 64, "the lints still know \(known.count) of 600 succeeded operations")
    #expect(p.operation(named: "bad")?.errors.isEmpty == false)
    #expect(p.operation(named: "dropped")?.cancelled == true)
    // Dependencies on forgotten and on kept operations alike: only the failed and the cancelled one
    // are warned about, and the forgotten one reads as succeeded.
    try rt.addOperation(live("after", deps: ["op0", "bad", "dropped"]), work: .none, on: "q")
    #expect(rt.waitUntilFinished(["after"], timeout: liveTimeout))
    rt.flushDeliveries()
    let warnings = log.events.compactMap { event -> String? in
      if case .warning("ranAfterFailedDependency", "after", let message) = event.kind {
        return message
      }
      return nil
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("bad") == true && warnings.first?.contains("op0") == false)
    // The retention itself is unchanged: a dependency on any of them still links.
    #expect(rt.state(of: "op0") == .finished && rt.state(of: "after") == .finished)
  }

  /// A dependency goes from the lints when its last dependent finishes, and an operation with a
  /// completion block once the block ran; not before.
  @Test func theLintsForgetADependencyWhenItsLastDependentFinishes() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 10_000))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    // Enqueued once its dependents are declared: finished with none, it could go at once.
    try rt.addOperation(live("root"), work: .none)
    for i in 0..<50 { try rt.addOperation(live("d\(i)", deps: ["root"]), work: .none, on: "held") }
    try rt.enqueue("root", on: "q")
    try rt.addOperation(
      OperationSpec(name: "withBlock", completion: true), work: .none, on: "q")
    #expect(rt.waitUntilFinished(["root", "withBlock"], timeout: liveTimeout))
    // Finished, but fifty dependents have not even started.
    rt.flushDeliveries()
    #expect(rt.lintProjection.operation(named: "root")?.state == .finished)
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    // The block runs after `withBlock` finished; a step in which something finishes after that
    // lets it go.
    for i in 0..<200 where rt.lintProjection.operation(named: "withBlock") != nil {
      try rt.addOperation(live("later\(i)"), work: .none, on: "q")
      #expect(rt.waitUntilFinished(timeout: liveTimeout))
      rt.flushDeliveries()
    }
    let p = rt.lintProjection
    #expect(p.operation(named: "root") == nil)
    #expect(p.operation(named: "withBlock") == nil)
    #expect((0..<50).allSatisfy { p.operation(named: "d\($0)") == nil })
    #expect(rt.state(of: "root") == .finished && rt.state(of: "withBlock") == .finished)
  }

  /// Retaining everything keeps everything in the lints' projection too.
  @Test func retainingEverythingKeepsTheLintsProjectionWhole() throws {
    let rt = LiveRuntime(retention: .all)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    for i in 0..<300 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    rt.flushDeliveries()
    #expect(rt.lintProjection.knownOperationCount == 300)
  }

  @Test func aLintStillSeesAFailedDependencyOfAnOperationThatStartsLater() throws {
    struct Failure: Error {}
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 0))
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    // `bad` is enqueued once `after` names it (with nothing kept it could be gone before).
    try rt.addOperation(live("bad"), work: .sync { _ in throw Failure() })
    try rt.addOperation(live("after", deps: ["bad"]), work: .none, on: "held")
    try rt.enqueue("bad", on: "q")
    // Plenty finishes meanwhile, so retirement runs many times while `after` waits.
    for i in 0..<299 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    // The last one is waited for by name, so something held names it before it is enqueued: with
    // nothing kept, it could otherwise finish and be forgotten before the wait asks for it.
    try rt.addOperation(live("op299"), work: .none)
    try rt.addOperation(live("watch", deps: ["op299"]), work: .none, on: "held")
    try rt.enqueue("op299", on: "q")
    #expect(rt.waitUntilFinished(["op299"], timeout: liveTimeout))
    rt.flushDeliveries()
    #expect(rt.lintProjection.operation(named: "bad")?.errors.isEmpty == false)
    #expect(rt.lintProjection.traits.errors == 1)
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let warned = log.events.contains {
      if case .warning("ranAfterFailedDependency", "after", _) = $0.kind { true } else { false }
    }
    #expect(warned)
    // Once `after` finished, `bad` can go.
    #expect(rt.state(of: "bad") == nil)
    #expect(rt.lintProjection.operation(named: "bad") == nil)
    // Its errors are no longer counted either (nothing left has any).
    #expect(rt.lintProjection.traits.errors == 0)
  }

  /// The core's records of retired operations are given back a chunk at a time, so its memory
  /// follows the operations it still knows rather than every one it ever ran.
  @Test func theRecordsOfRetiredOperationsAreReleased() throws {
    let rt = LiveRuntime(lints: [], retention: try LiveRetention(keepingFinished: 10))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    let count = 20 * ChunkedArray<OperationRecord>.chunkSize
    for i in 0..<count { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let chunks = rt.recordChunks
    #expect(chunks.all == 20)
    // The last chunk holds the ten kept; an older one may wait for the retirement that lags a step.
    #expect(chunks.held <= 2, "\(chunks.held) of \(chunks.all) chunks of records are still held")
    // Still known: the kept ones, read through a held chunk; gone: the rest, through released ones.
    #expect(rt.state(of: "op\(count - 1)") == .finished)
    #expect(rt.state(of: "op0") == nil && rt.state(of: "op\(count / 2)") == nil)
    // A name of a released chunk can be taken again.
    try rt.addOperation(live("op0"), work: .none, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
  }

  /// Retired records are freed by the drain that publishes their last events, not kept until a
  /// batch of them fills.
  @Test func retiredRecordsAreFreedOnceTheirEventsAreDelivered() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 0))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    for i in 0..<1_000 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.state(of: "op0") == nil && rt.state(of: "op999") == nil)
    #expect(rt.retiredRecordsHeld == 0)
  }

  @Test func retainingEverythingForgetsNothing() throws {
    let rt = LiveRuntime(lints: [], retention: .all)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    for i in 0..<50 { try rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    for i in 0..<50 { #expect(rt.state(of: "op\(i)") == .finished) }
  }

  /// An operation that finished with nothing holding it back is noted as retirable (`RetireHint`);
  /// a new operation that then depends on it must undo that, or it would be retired while its
  /// dependent still needs it.
  @Test func aFinishedOperationANewOneDependsOnIsKeptUntilThatOneFinishes() throws {
    let rt = LiveRuntime(lints: [], retention: try LiveRetention(keepingFinished: 1))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    try rt.addOperation(live("a"), work: .none, on: "q")
    #expect(rt.waitUntilFinished(["a"], timeout: liveTimeout))
    try rt.addOperation(live("b", deps: ["a"]), work: .none, on: "held")
    // Enough finished after a for it to be the oldest beyond the one kept, tried at each step.
    for i in 0..<20 { try rt.addOperation(live("n\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(["n19"], timeout: liveTimeout))
    #expect(rt.state(of: "n0") == nil, "n0 should be retired")
    #expect(rt.state(of: "a") == .finished)
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    for i in 0..<3 { try rt.addOperation(live("m\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.state(of: "a") == nil, "a should be retired once b finished")
  }

  /// A retired operation's name leaves the core's table (`OperationNameIndex`): it must read as
  /// unknown however many names came and went, and a new operation may take it.
  @Test func aRetiredNameIsUnknownAfterManyRetirementsAndCanBeTakenAgain() throws {
    let rt = LiveRuntime(lints: [], retention: try LiveRetention(keepingFinished: 0))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    // Enough retirements for the table to grow and to remove names across its runs.
    for round in 0..<4 {
      for i in 0..<1_500 {
        try rt.addOperation(live("op\(round * 1_500 + i)"), work: .none, on: "q")
      }
      #expect(rt.waitUntilFinished(timeout: liveTimeout))
    }
    // Retired once nothing newer than them is needed: all but the last few are gone.
    #expect(rt.state(of: "op0") == nil)
    #expect(rt.state(of: "op3000") == nil)
    #expect(throws: EngineError.unknownOperation("op17")) {
      try rt.addOperation(live("x", deps: ["op17"]), work: .none, on: "q")
    }
    // A retired name is free again; a name in use is not.
    try rt.addQueue(QueueSpec(name: "held", suspended: true))
    try rt.addOperation(live("op17"), work: .none, on: "held")
    #expect(rt.state(of: "op17") == .ready)
    #expect(throws: EngineError.duplicateOperation("op17")) {
      try rt.addOperation(live("op17"), work: .none, on: "q")
    }
    #expect(rt.perform(.resume(queue: "held")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.state(of: "op17") == nil)
  }

  /// With nothing kept, operations linked every way (dependencies declared and added late,
  /// completion blocks, a group's children and what a child produces, condition-produced
  /// dependencies) are retired once nothing can need them, and groups never are.
  @Test func retirementFollowsEveryKindOfLink() throws {
    let rt = LiveRuntime(retention: try LiveRetention(keepingFinished: 0))
    // Suspended while the links are made: with nothing kept, an operation that finished before a
    // later one named it could already be retired (a machine under load made this test flaky).
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 3, suspended: true))
    for r in 0..<40 {
      try rt.addOperation(live("a\(r)"), work: busyWork(steps: 1), on: "q")
      try rt.addOperation(live("b\(r)", deps: ["a\(r)"]), work: .sync { _ in }, on: "q")
      var c = live("c\(r)", deps: ["a\(r)", "b\(r)"])
      c.completion = true
      try rt.addOperation(c, work: .sync { _ in }, on: "q")
      // Declared, linked after declaration, then enqueued.
      try rt.addOperation(live("late\(r)"), work: .sync { _ in })
      try rt.addDependency("late\(r)", on: "c\(r)")
      try rt.enqueue("late\(r)", on: "q")
      // A group whose child produces another child.
      try rt.addOperation(live("k\(r)a"), work: .sync { _ in })
      try rt.addOperation(live("p\(r)"), work: .sync { _ in })
      try rt.addOperation(live("k\(r)b"), work: .sync { ctx in _ = ctx.produce("p\(r)") })
      try rt.addOperation(
        OperationSpec(name: "g\(r)", children: ["k\(r)a", "k\(r)b"]), work: .none, on: "q")
      // A condition that produces its dependency.
      try rt.addOperation(live("login\(r)"), work: .sync { _ in })
      try rt.addOperation(
        OperationSpec(
          name: "cond\(r)", dependencies: ["b\(r)"],
          conditions: [ConditionSpec(name: "loggedIn", dependency: "login\(r)")]),
        work: .sync { _ in }, on: "q")
    }
    #expect(rt.perform(.resume(queue: "q")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    // One more step after everything finished retries what waited for a dependent.
    try rt.addOperation(live("last"), work: .none, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    // The early rounds are gone; groups are never retired.
    for name in ["a0", "b0", "c0", "late0", "cond0", "login0"] {
      #expect(rt.state(of: name) == nil, "\(name) should be retired")
    }
    #expect(rt.state(of: "g0") == .finished)
  }

  @Test func aNegativeRetentionIsRefused() {
    #expect(throws: EngineError.self) { try LiveRetention(keepingFinished: -1) }
    #expect(LiveRetention.standard.finishedKept == 10_000)
  }
}

/// The live runtime's lints fold without histories; what they read is the same.
@Suite struct LiveLintProjectionTests {
  @Test func theLintsProjectionKeepsStatesAndTimesButNoHistoryOrObservers() throws {
    let rt = LiveRuntime(retention: .all)
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    for i in 0..<20 { try rt.addOperation(live("op\(i)"), work: .sync { _ in }, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let lean = rt.lintProjection
    var full = Projection()
    for event in log.events { full.apply(event) }
    #expect(!lean.keepsHistory && full.keepsHistory)
    #expect(lean.operations.count == 20 && full.operations.count == 20)
    for i in 0..<20 {
      let (a, b) = (lean.operations[i], full.operations[i])
      #expect(a.history.isEmpty && b.history.count == 6)
      #expect(
        a.observers.isEmpty && b.observers.map(\.name) == ["didStart", "willFinish", "didFinish"])
      #expect(a.state == b.state && a.startedAt == b.startedAt && a.finishedAt == b.finishedAt)
      #expect(a.readySeq == b.readySeq && a.finishSeq == b.finishSeq)
    }
    #expect(lean.queues == full.queues && lean.unfinishedCount == full.unfinishedCount)
  }
}

/// The core finds the operations it created last by comparing names (`RecentOperations`): a
/// retired one among them reads as unknown, and a newer one of its name as itself.
@Suite struct RecentOperationsTests {
  @Test func theNewestEntryOfANameWinsAndTheOldestGo() {
    var recent = RecentOperations()
    #expect(recent.id(of: "") == nil && recent.id(of: "a") == nil)
    recent.note("a", id: 0)
    recent.note("b", id: 1)
    recent.note("a", id: 2)
    #expect(recent.id(of: "a") == 2 && recent.id(of: "b") == 1)
    for i in 3..<(3 + RecentOperations.capacity - 1) { recent.note("x\(i)", id: i) }
    // "a" (2) is still the oldest entry; "b" (1) went.
    #expect(recent.id(of: "a") == 2 && recent.id(of: "b") == nil)
  }

  @Test func aRetiredRecentOperationIsUnknownAndItsNameCanBeTakenAgain() throws {
    let rt = LiveRuntime(lints: [], retention: try LiveRetention(keepingFinished: 0))
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    try rt.addQueue(QueueSpec(name: "held", maxConcurrent: 1, suspended: true))
    try rt.addOperation(live("a"), work: .none, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    // Retired at once (nothing kept), while still among the last created.
    #expect(rt.state(of: "a") == nil)
    #expect(throws: EngineError.unknownOperation("a")) {
      try rt.addOperation(OperationSpec(name: "b", dependencies: ["a"]), work: .none)
    }
    // Taken again, on a suspended queue so it stays: the new one is found, and named as a
    // dependency.
    try rt.addOperation(live("a"), work: .none, on: "held")
    #expect(rt.state(of: "a") == .ready)
    try rt.addOperation(OperationSpec(name: "b", dependencies: ["a"]), work: .none, on: "held")
    #expect(rt.state(of: "b") == .pending)
  }
}
