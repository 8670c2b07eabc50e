import OpsEngine
import OpsEvents
import Testing

/// Folds a runtime's events into the projection, as the board and `trace --explain` do.
func analyse(_ rt: VirtualRuntime) -> (Projection, Projection) {
  var projection = Projection()
  for e in rt.events { projection.apply(e) }
  return (projection, projection)
}

extension Projection {
  fileprivate func operation(_ name: String) -> OperationInfo? { operation(named: name) }
  fileprivate func queue(_ name: String) -> QueueInfo? { queue(named: name) }
}

@Suite struct ExplanationTests {
  @Test func replicaAgreesWithTheEngineOnEveryOperation() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "a", maxConcurrent: 2), QueueSpec(name: "b", maxConcurrent: 1)],
      operations: (0..<30).map { i in
        (
          op(
            "o\(i)", work: Double(i % 4) + 0.5, priority: QueuePriority.allCases[i % 5],
            deps: i > 5 ? ["o\(i / 3)"] : []),
          i % 2 == 0 ? "a" : "b"
        )
      })
    rt.schedule(.cancel(operation: "o7"), at: 1)
    rt.advance(by: 4)
    let (replica, _) = analyse(rt)
    for i in 0..<30 {
      #expect(replica.operation("o\(i)")?.state == rt.state(of: "o\(i)"))
      #expect(replica.operation("o\(i)")?.cancelled == rt.isCancelled("o\(i)"))
    }
    #expect(replica.queue("a")?.executing == rt.executingCount(of: "a"))
    #expect(replica.queue("b")?.operationCount == rt.operationCount(of: "b"))
    #expect(replica.members(of: "b").count == rt.operationCount(of: "b"))
  }

  @Test func explainsDependencies() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "net"), QueueSpec(name: "img")],
      operations: [(op("download", work: 2), "net"), (op("resize", deps: ["download"]), "img")])
    let (replica, _) = analyse(rt)
    #expect(replica.whyWaiting("resize") == "waiting for its dependency download (executing)")
    #expect(replica.whyWaiting("download") == nil)
  }

  @Test func explainsAQueueAtItsLimitNamingWhatExecutes() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 2)],
      operations: [
        (op("download"), "q"), (op("parse"), "q"), (op("next", priority: .high), "q"),
        (op("last"), "q"),
      ])
    let (replica, _) = analyse(rt)
    #expect(replica.whyWaiting("next") == "q is at its limit: 2/2 executing: download, parse")
    #expect(
      replica.whyWaiting("last")
        == "q is at its limit: 2/2 executing: download, parse; next in line before it: next (high)")
  }

  @Test func explainsSuspensionExclusivityCyclesAndCancelledWaiters() throws {
    let lockA = OperationSpec(
      name: "showError", exclusivity: ["Alert"], work: WorkScript(duration: 3))
    let lockB = OperationSpec(name: "rate", exclusivity: ["Alert"])
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q"), QueueSpec(name: "held", suspended: true)],
      operations: [
        (lockA, "q"), (lockB, "q"), (op("x", deps: ["y"]), "q"), (op("y", deps: ["x"]), "q"),
        (op("parked"), "held"),
        (op("gone"), "held"),
      ])
    rt.perform(.cancel(operation: "gone"))
    let (replica, _) = analyse(rt)
    // Its only condition is exclusivity: it waits for the lock while evaluating its conditions.
    #expect(replica.operation(named: "rate")?.state == .evaluatingConditions)
    #expect(
      replica.whyWaiting("rate")
        == "evaluating its conditions: waiting for the Alert exclusivity lock held by showError")
    #expect(
      replica.whyWaiting("x") == "part of a dependency cycle x → y → x: none of them can ever start"
    )
    #expect(replica.whyWaiting("parked") == "its queue held is suspended")
    #expect(
      replica.whyWaiting("gone")
        == "cancelled, waiting for its queue to start it so it can finish: its queue held is suspended"
    )
  }

  @Test func explainsALockAwaitedAfterTheOtherConditionsPassed() throws {
    let holder = OperationSpec(
      name: "holder", exclusivity: ["Alert"], work: WorkScript(duration: 3))
    let spec = OperationSpec(
      name: "upload", conditions: [ConditionSpec(name: "loggedIn", evaluate: 1)],
      exclusivity: ["Alert"])
    let rt = try makeRuntime(operations: [(holder, "q"), (spec, "q")])
    rt.advance(by: 2)
    let (replica, _) = analyse(rt)
    #expect(
      replica.whyWaiting("upload")
        == "its conditions passed; waiting for the Alert exclusivity lock held by holder")
  }

  @Test func explainsConditionsBeingEvaluated() throws {
    let spec = OperationSpec(
      name: "upload", conditions: [ConditionSpec(name: "loggedIn", evaluate: 2)])
    let rt = try makeRuntime(operations: [(spec, "q")])
    rt.advance(by: 1)
    let (replica, _) = analyse(rt)
    #expect(replica.whyWaiting("upload") == "evaluating condition loggedIn")
  }
}

@Suite struct WarningTests {
  func kinds(_ d: Projection) -> Set<String> {
    Set(d.warnings.map { "\($0.kind):\($0.subject)" })
  }

  @Test func aHealthyRunRaisesNothing() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 2)],
      operations: (0..<6).map { (op("o\($0)", work: 1, deps: $0 > 0 ? ["o\($0 - 1)"] : []), "q") })
    rt.run()
    #expect(analyse(rt).1.warnings.isEmpty)
  }

  @Test func flagsEachPitfall() throws {
    let never = OperationSpec(name: "never", work: WorkScript(finishes: false))
    let deaf = OperationSpec(name: "deaf", cancellation: .ignored, work: WorkScript(duration: 6))
    let failing = OperationSpec(name: "failing", work: WorkScript(fails: "boom"))
    let cond = OperationSpec(
      name: "guarded",
      conditions: [ConditionSpec(name: "ok", check: .scripted(result: .failed, error: "nope"))])
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q"), QueueSpec(name: "parked", suspended: true)],
      operations: [
        (never, "q"), (deaf, "q"), (failing, "q"), (op("after", deps: ["failing"]), "q"),
        (cond, "q"),
        (op("a", deps: ["b"]), "q"), (op("b", deps: ["a"]), "q"), (op("done", work: 0.5), "q"),
        (op("waits"), "parked"),
      ])
    rt.schedule(.cancel(operation: "deaf"), at: 1)
    rt.schedule(.cancel(operation: "done"), at: 2)
    rt.run(until: 20)
    let found = kinds(analyse(rt).1)
    #expect(found.contains("neverFinishes:never"))
    #expect(found.contains("ignoresCancellation:deaf"))
    #expect(found.contains("ranAfterFailedDependency:after"))
    #expect(found.contains("conditionFailed:guarded"))
    #expect(found.contains("dependencyCycle:a") && found.contains("dependencyCycle:b"))
    #expect(found.contains("cancelledTooLate:done"))
    // `never` keeps executing, so the suspended queue is not the only thing happening.
    #expect(!found.contains("suspendedQueueIdle:parked"))
  }

  /// Suspended by a command once its first operation finished: the lint looks at the queues from the
  /// suspension on, and a resume before the grace runs out clears the deadline.
  @Test func flagsAQueueSuspendedLaterOnlyIfItStaysSuspended() throws {
    for resumeAt in [nil, 4.0] {
      let rt = try makeRuntime(
        queues: [QueueSpec(name: "q", maxConcurrent: 1)],
        operations: [(op("first", work: 1), "q"), (op("second", work: 1), "q")])
      rt.schedule(.suspend(queue: "q"), at: 0.5)
      if let resumeAt { rt.schedule(.resume(queue: "q"), at: resumeAt) }
      rt.run(until: 12)
      let found = kinds(analyse(rt).1)
      #expect(found == (resumeAt == nil ? ["suspendedQueueIdle:q"] : []))
      if resumeAt == nil {
        // Idle from the first finish (1 s) on, flagged once the grace ran out.
        #expect(analyse(rt).1.warnings.first?.time == 1 + SuspendedQueueIdleLint.grace)
      }
    }
  }

  @Test func flagsASuspendedQueueHoldingWorkWhileNothingRuns() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "parked", suspended: true)], operations: [(op("waits"), "parked")])
    rt.advance(by: 4)
    #expect(analyse(rt).1.warnings.isEmpty)
    rt.advance(by: 2)
    #expect(kinds(analyse(rt).1) == ["suspendedQueueIdle:parked"])
    // Raised by the engine at the time the grace ran out, whatever the driver's steps.
    #expect(analyse(rt).1.warnings.first?.time == SuspendedQueueIdleLint.grace)
  }

  @Test func flagsStarvationByAStreamOfHigherPriorities() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: [(op("first"), "q"), (op("low", priority: .veryLow), "q")]
        + (0..<5).map { (op("hi\($0)", priority: .high), "q") })
    rt.run()
    #expect(kinds(analyse(rt).1) == ["starved:low"])
  }
}

/// An operation with more conditions and categories than the projection scans (it indexes them):
/// every one is found by its events, as a scan would find it.
@Suite struct ManyConditionsTests {
  @Test func eachConditionAndLockOfAManyConditionedOperationIsFollowed() throws {
    let conditions = (0..<40).map { ConditionSpec(name: "c\($0)", evaluate: 0.5) }
    let categories = (0..<40).map { "k\($0)" }
    let big = OperationSpec(
      name: "big", conditions: conditions, exclusivity: categories, work: WorkScript(duration: 1))
    let failing = OperationSpec(
      name: "failing",
      conditions: (0..<39).map { ConditionSpec(name: "f\($0)", evaluate: 1) }
        + [ConditionSpec(name: "last", check: .scripted(result: .failed, error: "no"))],
      work: WorkScript(duration: 1))
    let rt = try makeRuntime(operations: [(big, "q"), (failing, "q")])
    rt.run(until: 10)
    let (p, _) = analyse(rt)
    let info = try #require(p.operation(named: "big"))
    #expect(info.conditions.count == 80)
    #expect(info.conditions.filter { !$0.isLock }.allSatisfy { $0.status == .satisfied })
    #expect(info.conditions.filter(\.isLock).allSatisfy { $0.status == .released })
    let f = try #require(p.operation(named: "failing"))
    #expect(f.conditions.last?.status == .failed)
    #expect(f.conditions.dropLast().allSatisfy { $0.status == .abandoned })
  }
}
