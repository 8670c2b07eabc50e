import OpsEngine
import OpsEvents
import Testing

/// Ports of swift-corelibs-foundation's TestOperationQueue cases, on the virtual runtime.
@Suite struct QueueSemanticsTests {
  @Test func prioritiesOrderStartsOnAResumedSerialQueue() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1, suspended: true)],
      operations: [
        (op("veryLow", priority: .veryLow), "q"), (op("high", priority: .high), "q"),
        (op("normal", priority: .normal), "q"), (op("veryHigh", priority: .veryHigh), "q"),
        (op("low", priority: .low), "q"), (op("high2", priority: .high), "q"),
      ])
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.startOrder == ["veryHigh", "high", "high2", "normal", "low", "veryLow"])
  }

  @Test func executionOrderIsFIFOOnASerialQueue() throws {
    let names = (0..<8).map { "op\($0)" }
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: names.map { (op($0, work: 0.1), "q") })
    rt.run()
    #expect(rt.startOrder == names)
    #expect(rt.finishOrder == names)
  }

  @Test func aReadyLowerPriorityOperationStartsBeforeAnUnreadyHigherOne() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1, suspended: true), QueueSpec(name: "other")],
      operations: [
        (op("blocker", work: 5), "other"),
        (op("high", priority: .veryHigh, deps: ["blocker"]), "q"),
        (op("low", priority: .veryLow), "q"),
      ])
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.startOrder == ["blocker", "low", "high"])
  }

  @Test func qosGivesThePriorityOnANonSerialQueueOnly() throws {
    func order(max: Int) throws -> [String] {
      let qoses: [QoS] = [
        .background, .utility, .default, .userInitiated, .userInteractive,
      ]
      let rt = try makeRuntime(
        queues: [QueueSpec(name: "q", maxConcurrent: max, suspended: true)],
        operations: qoses.map { (OperationSpec(name: $0.rawValue, qos: $0), "q") })
      rt.perform(.setMaxConcurrent(queue: "q", value: 1))
      rt.perform(.resume(queue: "q"))
      rt.run()
      return rt.startOrder
    }
    // Enqueued while the queue allowed 2: priorities were derived then and kept.
    #expect(
      try order(max: 2) == ["userInteractive", "userInitiated", "default", "utility", "background"])
    // Enqueued on a serial queue: QoS is ignored, FIFO.
    #expect(
      try order(max: 1) == ["background", "utility", "default", "userInitiated", "userInteractive"])
  }

  @Test func explicitPriorityWinsOverQoS() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 2, suspended: true)],
      operations: [
        (OperationSpec(name: "bg", priority: .veryHigh, qos: .background), "q"),
        (OperationSpec(name: "ui", qos: .userInteractive), "q"),
      ])
    rt.perform(.setMaxConcurrent(queue: "q", value: 1))
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.startOrder == ["bg", "ui"])
  }

  @Test func neverMoreThanMaxConcurrentExecute() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 3)],
      operations: (0..<10).map { (op("o\($0)", work: 1), "q") })
    rt.run()
    var executing = 0
    var peak = 0
    for e in rt.events {
      if case .state(_, _, .executing, _) = e.kind { executing += 1 }
      if case .state(_, .executing, _, _) = e.kind { executing -= 1 }
      peak = max(peak, executing)
    }
    #expect(peak == 3)
    #expect(rt.time { if case .didStart("o9") = $0 { true } else { false } } == 3)
  }

  @Test func zeroMaxConcurrentStartsNothingAndRaisingStartsAtOnce() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 0)],
      operations: (0..<4).map { (op("o\($0)"), "q") })
    rt.advance(by: 5)
    #expect(rt.startOrder.isEmpty)
    #expect(rt.operationCount(of: "q") == 4)
    rt.perform(.setMaxConcurrent(queue: "q", value: 2))
    #expect(rt.startOrder == ["o0", "o1"])
    #expect(rt.executingCount(of: "q") == 2)
  }

  @Test func loweringMaxConcurrentStopsNothingThatRuns() throws {
    let rt = try makeRuntime(operations: (0..<4).map { (op("o\($0)", work: 2), "q") })
    rt.advance(by: 0.5)
    rt.perform(.setMaxConcurrent(queue: "q", value: 1))
    #expect(rt.executingCount(of: "q") == 4)
    rt.run()
    #expect(rt.finishOrder.count == 4)
  }

  @Test func suspensionOnlyPreventsNewStarts() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: [(op("a", work: 2), "q"), (op("b"), "q")])
    rt.advance(by: 1)
    rt.perform(.suspend(queue: "q"))
    rt.advance(by: 5)
    #expect(rt.state(of: "a") == .finished)
    #expect(rt.state(of: "b") == .ready)
    rt.perform(.resume(queue: "q"))
    #expect(rt.state(of: "b") == .executing)
    #expect(rt.time { if case .didStart("b") = $0 { true } else { false } } == 6)
  }

  @Test func crossQueueDependencyWaitsForTheOtherQueue() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "net"), QueueSpec(name: "img")],
      operations: [(op("resize", deps: ["download"]), "img"), (op("download", work: 2), "net")])
    rt.run()
    #expect(rt.startOrder == ["download", "resize"])
    #expect(rt.time { if case .didStart("resize") = $0 { true } else { false } } == 2)
    #expect(rt.states(of: "resize") == [.pending, .ready, .executing, .finishing, .finished])
  }

  @Test func dependencyOnAnOperationNotYetAdded() throws {
    let rt = try makeRuntime(
      operations: [(op("b", deps: ["a"]), "q"), (op("a"), "q")], enqueue: false)
    try rt.enqueue("b", on: "q")
    rt.advance(by: 3)
    #expect(rt.state(of: "b") == .pending)
    try rt.enqueue("a", on: "q")
    rt.run()
    #expect(rt.startOrder == ["a", "b"])
  }

  @Test func finishedOperationsLeaveTheQueue() throws {
    let rt = try makeRuntime(operations: [(op("a", work: 1), "q"), (op("b", work: 2), "q")])
    #expect(rt.operationCount(of: "q") == 2)
    rt.advance(by: 1.5)
    #expect(rt.operationCount(of: "q") == 1)
    rt.run()
    #expect(rt.operationCount(of: "q") == 0)
  }

  @Test func barrierRunsAfterEarlierOperationsAndBeforeLaterOnes() throws {
    var barrier = op("barrier", work: 0.5)
    barrier.barrier = true
    let rt = try makeRuntime(
      operations: [
        (op("a", work: 1), "q"), (op("b", work: 2), "q"), (barrier, "q"), (op("c", work: 1), "q"),
      ])
    rt.run()
    #expect(rt.startOrder == ["a", "b", "barrier", "c"])
    #expect(rt.time { if case .didStart("barrier") = $0 { true } else { false } } == 2)
    #expect(rt.time { if case .didStart("c") = $0 { true } else { false } } == 2.5)
  }
}

@Suite struct LateDependencyTests {
  @Test func aDependencyCanOnlyBeAddedWhilePending() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true)], operations: [(op("a"), "q"), (op("b"), "q")])
    #expect(throws: EngineError.dependencyTooLate("a", .ready)) {
      try rt.addDependency("a", on: "b")
    }
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.startOrder == ["a", "b"])
  }

  @Test func aDependencyAddedWhilePendingIsPublishedAndHonoured() throws {
    let rt = try makeRuntime(operations: [
      (op("a", work: 2), "q"), (op("b", deps: ["a"]), "q"), (op("c", work: 0.25), "q"),
    ])
    rt.advance(by: 0.5)
    #expect(rt.state(of: "c") == .finished)
    try rt.addDependency("b", on: "c")
    #expect(rt.events.last?.kind == .dependencyAdded(operation: "b", dependency: "c"))
    rt.run()
    #expect(rt.time { if case .didStart("b") = $0 { true } else { false } } == 2)
  }
}
