import OpsEngine
import OpsEvents
import Testing

@Suite struct CancellationTests {
  @Test func cancelledBeforeStartNeverExecutesButFinishes() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: [(op("a", work: 2), "q"), (op("b"), "q")])
    rt.perform(.cancel(operation: "b"))
    rt.run()
    #expect(rt.startOrder == ["a"])
    #expect(rt.states(of: "b") == [.pending, .ready, .finishing, .finished])
    #expect(rt.isCancelled("b"))
    // It still needed its queue to start it: it finishes when a frees the only slot.
    #expect(rt.time { if case .didFinish("b", _, true) = $0 { true } else { false } } == 2)
  }

  @Test func cancelledOperationIsReadyAtOnceDespiteUnfinishedDependencies() throws {
    let rt = try makeRuntime(operations: [(op("a", work: 5), "q"), (op("b", deps: ["a"]), "q")])
    rt.advance(by: 1)
    rt.perform(.cancel(operation: "b"))
    #expect(rt.state(of: "b") == .finished)
    #expect(rt.state(of: "a") == .executing)
  }

  @Test func dependentsOfACancelledDependencyStillRun() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true)],
      operations: [(op("a"), "q"), (op("b", deps: ["a"]), "q")])
    rt.perform(.cancel(operation: "a"))
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.startOrder == ["b"])
    #expect(rt.isCancelled("b") == false)
  }

  @Test func cancelledOnASuspendedQueueFinishesOnlyAfterResume() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true)], operations: [(op("a"), "q")])
    rt.perform(.cancel(operation: "a"))
    rt.advance(by: 3)
    #expect(rt.state(of: "a") == .ready)
    #expect(rt.flags(of: "a") == OperationFlags(state: .ready, cancelled: true))
    rt.perform(.resume(queue: "q"))
    #expect(rt.state(of: "a") == .finished)
  }

  @Test func cancelOutsideAnyQueueNeverFinishes() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q")], enqueue: false)
    rt.perform(.cancel(operation: "a"))
    rt.run()
    #expect(rt.state(of: "a") == .initialized)
    #expect(rt.isCancelled("a"))
  }

  @Test func cancellingOneMemberOfACycleBreaksTheDeadlock() throws {
    let rt = try makeRuntime(operations: [(op("a", deps: ["b"]), "q"), (op("b", deps: ["a"]), "q")])
    rt.run()
    #expect(rt.events.contains { $0.kind == .cycleDetected(operations: ["a", "b"]) })
    #expect(rt.state(of: "a") == .pending && rt.state(of: "b") == .pending)
    rt.perform(.cancel(operation: "a"))
    rt.run()
    #expect(rt.state(of: "a") == .finished && rt.state(of: "b") == .finished)
    #expect(rt.startOrder == ["b"])
  }

  @Test func cycleIsReportedOnceWithAllMembers() throws {
    let rt = try makeRuntime(
      operations: [
        (op("a", deps: ["c"]), "q"), (op("b", deps: ["a"]), "q"), (op("c", deps: ["b"]), "q"),
      ])
    rt.run()
    let cycles = rt.events.compactMap {
      if case .cycleDetected(let ops) = $0.kind { ops } else { nil }
    }
    #expect(cycles.count == 1)
    #expect(Set(cycles[0]) == ["a", "b", "c"])
  }

  @Test func cancellingAFinishedOperationIsTooLate() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q")])
    rt.run()
    let outcome = rt.perform(.cancel(operation: "a"), source: .key)
    #expect(outcome.isApplied == false)
    #expect(
      rt.events.suffix(3).map(\.kind).prefix(2) == [
        .command(command: "cancel", target: "a", value: nil, source: .key),
        .cancelTooLate(operation: "a"),
      ])
    // The engine's lint says so at the same time.
    #expect(rt.events.last?.kind.type == "warning" && rt.events.last?.kind.subject == "a")
    #expect(rt.isCancelled("a") == false)
  }

  @Test(arguments: [
    (CancellationMode.cooperative, 1.25), (CancellationMode.immediate, 1.1),
    (CancellationMode.ignored, 4.0),
  ])
  func cancellingAnExecutingOperationFollowsItsMode(mode: CancellationMode, finishAt: Double) throws
  {
    let spec = OperationSpec(
      name: "a", cancellation: mode, work: WorkScript(duration: 4, checkEvery: 0.25))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.schedule(.cancel(operation: "a"), at: 1.1)
    rt.run()
    #expect(rt.time { if case .didFinish("a", _, true) = $0 { true } else { false } } == finishAt)
    #expect(
      rt.events.contains { $0.kind == .cancelled(operation: "a", errors: [], cause: .action) })
  }

  @Test func cancelAllCancelsEveryUnfinishedOperationOfTheQueue() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: (0..<4).map { (op("o\($0)", work: 1), "q") })
    rt.advance(by: 1.5)
    rt.perform(.cancelAll(queue: "q"), source: .key)
    rt.run()
    #expect(rt.startOrder == ["o0", "o1"])
    let cancelled = rt.events.compactMap {
      if case .cancelled(let o, _, .command) = $0.kind { o } else { nil }
    }
    #expect(cancelled == ["o1", "o2", "o3"])
  }

  @Test func timeoutCancelsWithATimeoutError() throws {
    let spec = OperationSpec(
      name: "slow", timeout: 3, work: WorkScript(duration: 10, checkEvery: 0.5))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.run()
    #expect(
      rt.events.contains {
        $0.kind == .cancelled(operation: "slow", errors: ["timed out after 3s"], cause: .timeout)
          && $0.time == 3
      })
    #expect(
      rt.time {
        if case .didFinish("slow", ["timed out after 3s"], true) = $0 { true } else { false }
      } == 3.5)
  }

  @Test func timeoutDoesNothingWhenTheWorkIsQuicker() throws {
    let spec = OperationSpec(name: "quick", timeout: 3, work: WorkScript(duration: 1))
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.run()
    #expect(rt.isCancelled("quick") == false)
  }

  @Test func rejectedCommandsSayWhyAndPublishNothing() throws {
    let rt = try makeRuntime(operations: [(op("a"), "q")])
    let before = rt.eventCount
    #expect(rt.perform(.resume(queue: "q")) == .rejected("q is not suspended"))
    #expect(rt.perform(.cancel(operation: "nope")) == .rejected("no operation named 'nope'"))
    #expect(rt.perform(.setMaxConcurrent(queue: "q", value: -1)).isApplied == false)
    #expect(rt.eventCount == before)
  }
}
