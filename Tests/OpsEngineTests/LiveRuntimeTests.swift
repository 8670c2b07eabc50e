import Foundation
import OpsEngine
import OpsEvents
import Testing

/// The queue rules that are not about timing, on real threads (the virtual-runtime versions are in
/// QueueSemanticsTests and CancellationTests).
@Suite struct LiveRuntimeTests {
  @Test func dependenciesOrderWorkAcrossQueues() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "a"))
    try rt.addQueue(QueueSpec(name: "b", maxConcurrent: 2))
    try rt.addOperation(live("x"), work: busyWork(), on: "a")
    try rt.addOperation(live("y", deps: ["x"]), work: busyWork(), on: "b")
    try rt.addOperation(live("z", deps: ["y"]), work: busyWork(), on: "a")
    try rt.addOperation(live("w", deps: ["x", "z"]), work: busyWork(), on: "b")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(log.startOrder == ["x", "y", "z", "w"])
    let seqs = log.events.map(\.kind)
    func index(_ kind: EventKind) -> Int { seqs.firstIndex(of: kind) ?? -1 }
    #expect(
      index(.didFinish(operation: "x", errors: [], cancelled: false))
        < index(.didStart(operation: "y")))
    #expect(
      index(.didFinish(operation: "z", errors: [], cancelled: false))
        < index(.didStart(operation: "w")))
  }

  @Test func prioritiesOrderStartsOnAResumedSerialQueue() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1, suspended: true))
    let specs: [(String, QueuePriority)] = [
      ("veryLow", .veryLow), ("high", .high), ("normal", .normal), ("veryHigh", .veryHigh),
      ("low", .low),
      ("high2", .high),
    ]
    for (name, p) in specs {
      try rt.addOperation(live(name, priority: p), work: busyWork(steps: 2), on: "q")
    }
    rt.perform(.resume(queue: "q"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(log.startOrder == ["veryHigh", "high", "high2", "normal", "low", "veryLow"])
  }

  @Test func cancelledBeforeStartNeverExecutesButFinishes() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q", suspended: true))
    try rt.addOperation(live("a"), work: busyWork(gauge, name: "a"), on: "q")
    try rt.addOperation(live("b"), work: busyWork(gauge, name: "b"), on: "q")
    #expect(rt.perform(.cancel(operation: "a")) == .applied)
    // Ready at once, but only its queue finishes it: not while suspended.
    #expect(rt.flags(of: "a") == OperationFlags(state: .ready, cancelled: true))
    rt.perform(.resume(queue: "q"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.runs == ["b": 1])
    #expect(log.startOrder == ["b"])
    #expect(rt.flags(of: "a") == OperationFlags(state: .finished, cancelled: true))
  }

  @Test func dependentsOfACancelledDependencyStillRun() throws {
    let rt = LiveRuntime()
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q", suspended: true))
    try rt.addOperation(live("a"), work: busyWork(gauge, name: "a"), on: "q")
    try rt.addOperation(live("b", deps: ["a"]), work: busyWork(gauge, name: "b"), on: "q")
    rt.perform(.cancel(operation: "a"))
    rt.perform(.resume(queue: "q"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.runs == ["b": 1])
    #expect(rt.isCancelled("b") == false)
  }

  @Test func cancellingOneMemberOfACycleBreaksTheDeadlock() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("a"), work: busyWork(gauge, name: "a"))
    try rt.addOperation(live("b", deps: ["a"]), work: busyWork(gauge, name: "b"))
    try rt.addDependency("a", on: "b")
    try rt.enqueue("a", on: "q")
    try rt.enqueue("b", on: "q")
    #expect(rt.state(of: "a") == .pending && rt.state(of: "b") == .pending)
    rt.perform(.cancel(operation: "a"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(log.events.contains { $0.kind == .cycleDetected(operations: ["a", "b"]) })
    #expect(gauge.runs == ["b": 1])
  }

  @Test func maxConcurrentIsRespected() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    for i in 0..<12 {
      try rt.addOperation(live("o\(i)"), work: busyWork(gauge, name: "o\(i)"), on: "q")
    }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.peak <= 2)
    #expect(gauge.runs.count == 12)
    // The same from the events: executing = didStart − didFinish never exceeds the limit.
    var executing = 0
    var peak = 0
    for e in log.events {
      if case .didStart = e.kind { executing += 1 }
      if case .didFinish = e.kind { executing -= 1 }
      peak = max(peak, executing)
    }
    #expect(peak <= 2)
  }

  @Test func suspendingStopsNewStartsButNotRunningWork() throws {
    let rt = LiveRuntime()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      live("long"),
      work: .sync { _ in
        started.signal()
        release.wait()
      }, on: "q")
    started.wait()
    rt.perform(.suspend(queue: "q"))
    try rt.addOperation(live("later"), work: busyWork(), on: "q")
    #expect(rt.state(of: "later") == .ready)
    release.signal()
    #expect(rt.waitUntilFinished(["long"], timeout: liveTimeout))
    #expect(rt.state(of: "later") == .ready)
    #expect(rt.operationCount(of: "q") == 1)
    rt.perform(.resume(queue: "q"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.state(of: "later") == .finished)
  }

  @Test func failedConditionCancelsWithItsError() throws {
    let rt = LiveRuntime()
    let gauge = ConcurrencyGauge()
    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "guarded", conditions: [ConditionSpec(name: "allowed")]),
      work: busyWork(gauge, name: "guarded"), conditions: ["allowed": { (.failed, "not allowed") }],
      on: "q")
    try rt.addOperation(live("fails"), work: .sync { _ in throw DiskFull() }, on: "q")
    try rt.addOperation(
      OperationSpec(
        name: "strict", dependencies: ["fails"],
        conditions: [ConditionSpec(name: "ok", check: .noFailedDependencies)]),
      work: busyWork(gauge, name: "strict"), on: "q")
    try rt.addOperation(
      OperationSpec(name: "negated", conditions: [ConditionSpec(name: "busy", negated: true)]),
      work: busyWork(gauge, name: "negated"), conditions: ["busy": { (.failed, nil) }], on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.runs == ["negated": 1])
    #expect(rt.errors(of: "guarded") == ["not allowed"])
    #expect(rt.isCancelled("guarded"))
    #expect(rt.errors(of: "fails") == ["disk full"])
    #expect(rt.errors(of: "strict") == ["dependency fails failed"])
    #expect(rt.isCancelled("negated") == false)
  }

  @Test func mutuallyExclusiveOperationsNeverOverlap() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    let gauge = ConcurrencyGauge()
    try rt.addQueue(QueueSpec(name: "a"))
    try rt.addQueue(QueueSpec(name: "b"))
    for i in 0..<10 {
      try rt.addOperation(
        OperationSpec(name: "x\(i)", exclusivity: ["db"]),
        work: busyWork(gauge, name: "x\(i)", steps: 5),
        on: i.isMultiple(of: 2) ? "a" : "b")
    }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(gauge.peak == 1)
    #expect(gauge.runs.count == 10)
    var holder: String?
    var overlaps = 0
    for e in log.events {
      switch e.kind {
      case .exclusivityAcquired(let o, _):
        if holder != nil { overlaps += 1 }
        holder = o
      case .exclusivityReleased(let o, _):
        if holder != o { overlaps += 1 }
        holder = nil
      default: break
      }
    }
    #expect(overlaps == 0)
  }

  @Test func groupFinishesAfterAllItsChildrenIncludingProducedOnes() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    struct Broken: Error {}
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(live("c1"), work: busyWork())
    try rt.addOperation(live("late"), work: busyWork())
    try rt.addOperation(live("c2"), work: .sync { ctx in ctx.produce("late") })
    try rt.addOperation(live("c3"), work: .sync { _ in throw Broken() })
    try rt.addOperation(
      OperationSpec(name: "g", children: ["c1", "c2", "c3"]), work: .none, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let finished = log.finishOrder
    #expect(finished.last == "g")
    #expect(Set(finished) == ["c1", "c2", "c3", "late", "g"])
    #expect(rt.errors(of: "g") == ["c3: Broken()"])
    #expect(log.events.contains { $0.kind == .didProduce(operation: "c2", produced: "late") })
  }

  @Test func subscribersSeeEverySequenceNumberInOrder() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    for q in ["a", "b", "c"] { try rt.addQueue(QueueSpec(name: q, maxConcurrent: 2)) }
    for i in 0..<60 {
      let deps = i >= 3 ? ["o\(i - 3)"] : []
      try rt.addOperation(
        live("o\(i)", deps: deps), work: busyWork(steps: 1), on: ["a", "b", "c"][i % 3])
    }
    rt.perform(.cancel(operation: "o30"))
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let events = log.events
    #expect(events.map(\.seq) == Array(1...rt.eventCount))
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
  }

  /// Every subscriber gets every event from the moment it subscribed, warnings included, in order
  /// (delivery hands each batch to one subscriber after another).
  @Test func aLaterSubscriberSeesTheSameStreamFromWhereItJoined() throws {
    let rt = LiveRuntime()
    let early = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    try rt.addQueue(QueueSpec(name: "parked", suspended: true))
    for i in 0..<300 { try rt.addOperation(live("a\(i)"), work: .none, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    rt.flushDeliveries()
    let joinedAfter = early.events.count
    let late = EventLog(rt)
    try rt.addOperation(live("held"), work: .none, on: "parked")
    // Cancelled while its queue is suspended: a warning in the stream.
    #expect(rt.perform(.cancel(operation: "held")) == .applied)
    for i in 0..<300 { try rt.addOperation(live("b\(i)"), work: .none, on: "q") }
    #expect(rt.perform(.resume(queue: "parked")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    rt.flushDeliveries()
    let all = early.events
    let tail = late.events
    #expect(all.map(\.seq) == Array(1...rt.eventCount))
    #expect(tail == Array(all.dropFirst(joinedAfter)))
    #expect(tail.contains { $0.kind.type == "warning" && $0.kind.subject == "held" })
  }
}
