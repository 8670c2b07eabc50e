import Foundation
import OpsEngine
import OpsEvents
import Testing

/// Hands an async operation's context and finish callback to the test thread.
final class AsyncHandle: @unchecked Sendable {
  private let lock = NSLock()
  private let arrived = DispatchSemaphore(value: 0)
  private var stored: (WorkContext, @Sendable ([String]) -> Void)?

  var work: LiveWork {
    .async { ctx, finish in
      self.lock.lock()
      self.stored = (ctx, finish)
      self.lock.unlock()
      self.arrived.signal()
    }
  }

  /// Waits until the work has started.
  func started() -> (context: WorkContext, finish: @Sendable ([String]) -> Void)? {
    guard arrived.wait(timeout: .now() + liveTimeout) == .success else { return nil }
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

/// Work kinds and cancellation of executing work on the live runtime.
@Suite struct LiveWorkTests {
  @Test func thrownErrorBecomesTheOperationsError() throws {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
    let rt = LiveRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("a"), work: .sync { _ in throw DiskFull() }, on: "q")
    #expect(rt.waitUntilFinished(["a"], timeout: liveTimeout))
    #expect(rt.errors(of: "a") == ["disk full"])
    #expect(rt.isCancelled("a") == false)
  }

  @Test func asyncOperationFinishesWhenItsWorkSaysSoAndOnlyOnce() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let handle = AsyncHandle()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("a"), work: handle.work, on: "q")
    let started = try #require(handle.started())
    #expect(rt.state(of: "a") == .executing)
    started.finish(["remote said no"])
    started.finish(["twice"])
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.errors(of: "a") == ["remote said no"])
    #expect(log.finishOrder == ["a"])
    #expect(
      log.events.contains {
        if case .operationAdded("a", _, _, _, .async, _, _, _, _) = $0.kind { true } else { false }
      })
  }

  @Test func blockOperationRunsEveryBlockAndFinishesAfterAll() throws {
    let rt = LiveRuntime()
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q"))
    let blocks: [@Sendable (WorkContext) -> Void] = (0..<3).map { i in
      { _ in
        gauge.enter("block\(i)")
        usleep(500)
        gauge.leave()
      }
    }
    try rt.addOperation(live("a"), work: .blocks(blocks), on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.runs == ["block0": 1, "block1": 1, "block2": 1])
  }

  @Test func cooperativeCancellationAsksTheWorkToStop() throws {
    let rt = LiveRuntime()
    let handle = AsyncHandle()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("a"), work: handle.work, on: "q")
    let started = try #require(handle.started())
    #expect(started.context.isCancelled == false)
    rt.perform(.cancel(operation: "a"))
    #expect(started.context.isCancelled)
    // The work decides when to stop: until it does, the operation is still executing.
    #expect(rt.flags(of: "a") == OperationFlags(state: .executing, cancelled: true))
    started.finish([])
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.flags(of: "a") == OperationFlags(state: .finished, cancelled: true))
  }

  @Test func immediateCancellationFinishesAtOnceAndIgnoresTheLateReturn() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let handle = AsyncHandle()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "a", cancellation: .immediate), work: handle.work, on: "q")
    let started = try #require(handle.started())
    rt.perform(.cancel(operation: "a"))
    #expect(rt.state(of: "a") == .finished)
    #expect(started.context.isCancelled)
    started.finish(["too late to matter"])
    #expect(rt.errors(of: "a") == [])
    rt.flushDeliveries()
    #expect(log.finishOrder == ["a"])
  }

  @Test func ignoredCancellationLetsTheWorkRunToItsEnd() throws {
    let rt = LiveRuntime()
    let handle = AsyncHandle()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "a", cancellation: .ignored), work: handle.work, on: "q")
    let started = try #require(handle.started())
    rt.perform(.cancel(operation: "a"))
    #expect(started.context.isCancelled == false)
    #expect(rt.flags(of: "a") == OperationFlags(state: .executing, cancelled: true))
    started.finish([])
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.flags(of: "a") == OperationFlags(state: .finished, cancelled: true))
  }

  @Test func timeoutCancelsCooperativeWorkWithATimeoutError() throws {
    let rt = LiveRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    // Work that would run for the whole hang guard unless cancelled.
    try rt.addOperation(
      OperationSpec(name: "slow", timeout: 0.05), work: busyWork(steps: Int(liveTimeout / 0.0002)),
      on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.errors(of: "slow") == ["timed out after 0.05s"])
    #expect(rt.isCancelled("slow"))
  }

  @Test func producedOperationJoinsTheProducersQueue() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("child"), work: busyWork(gauge, name: "child"))
    try rt.addOperation(
      live("parent"),
      work: .sync { ctx in
        #expect(ctx.produce("child"))
        #expect(ctx.produce("child") == false)
        #expect(ctx.produce("nobody") == false)
      }, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.runs == ["child": 1])
    #expect(log.events.contains { $0.kind == .didProduce(operation: "parent", produced: "child") })
  }

  @Test func completionIsPublishedAfterTheOperationFinished() throws {
    let rt = LiveRuntime()
    let completed = DispatchSemaphore(value: 0)
    let log = EventLog(rt)
    rt.subscribe { if case .completion = $0.kind { completed.signal() } }
    try rt.addQueue(QueueSpec(name: "q"))
    var spec = live("a")
    spec.completion = true
    try rt.addOperation(spec, work: busyWork(steps: 1), on: "q")
    #expect(completed.wait(timeout: .now() + liveTimeout) == .success)
    rt.flushDeliveries()
    let types = log.events.filter { $0.kind.operation == "a" }.map(\.kind.type)
    #expect(types.suffix(2) == ["didFinish", "completion"])
  }

  @Test func misuseIsReportedAsErrors() throws {
    let rt = LiveRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    #expect(throws: EngineError.duplicateQueue("q")) { try rt.addQueue(QueueSpec(name: "q")) }
    #expect(throws: EngineError.unknownOperation("ghost")) {
      try rt.addOperation(live("a", deps: ["ghost"]), work: .none)
    }
    #expect(throws: EngineError.unknownQueue("nowhere")) {
      try rt.addOperation(live("a"), work: .none, on: "nowhere")
    }
    try rt.addOperation(live("a"), work: .none, on: "q")
    #expect(throws: EngineError.alreadyEnqueued("a")) { try rt.enqueue("a", on: "q") }
    #expect(rt.waitUntilFinished(["ghost"], timeout: liveTimeout) == false)
    #expect(rt.waitUntilFinished(["a"], timeout: liveTimeout))
  }
}
