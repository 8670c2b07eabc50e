import OpsEngine
import OpsEvents
import PropertyBased
import Testing

/// Each program runs on the real swift-corelibs-foundation `OperationQueue` and on the virtual runtime;
/// they must agree step by step on what starts, what finishes and what ends cancelled. Each test also
/// pins what Foundation does, so the lesson is written down and a change on either side shows.
@Suite struct FoundationDifferentialTests {
  // MARK: - Priorities

  @Test func explicitPrioritiesOrderStartsOnAResumedSerialQueue() async throws {
    let names: [(String, QueuePriority)] = [
      ("veryLow", .veryLow), ("high", .high), ("normal", .normal), ("veryHigh", .veryHigh),
      ("low", .low), ("high2", .high),
    ]
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true)],
        ops: names.map { .init(name: $0.0, queue: "q", priority: $0.1, autoFinish: true) },
        steps: names.map { .add($0.0) } + [.resume("q")]))
    #expect(d.virtual.started == ["veryHigh", "high", "high2", "normal", "low", "veryLow"])
  }

  @Test func qosGivesThePriorityWhenTheLimitAtEnqueueIsNotOne() async throws {
    let qoses: [QoS] = [
      .background, .utility, .default, .userInitiated, .userInteractive,
    ]
    // Three queues, each made serial before it is resumed, so each start order is exact.
    let queues: [(String, Int?)] = [("wide", 2), ("closed", 0), ("serial", 1), ("unlimited", nil)]
    let ops = queues.flatMap { q in
      qoses.map { DiffProgram.Op(name: "\(q.0).\($0.rawValue)", queue: q.0, qos: $0) }
    }
    let d = try await agree(
      DiffProgram(
        queues: queues.map { .init(name: $0.0, maxConcurrent: $0.1, suspended: true) },
        ops: ops,
        steps: ops.map { .add($0.name) } + queues.flatMap { [.setMax($0.0, 1), .resume($0.0)] }
          + [.finishEverything]))
    let derived = ["userInteractive", "userInitiated", "default", "utility", "background"]
    for q in ["wide", "closed", "unlimited"] {
      #expect(d.virtual.order(in: q, of: d.program) == derived.map { "\(q).\($0)" })
    }
    // Enqueued on a serial queue: no priority is derived, so FIFO.
    #expect(d.virtual.order(in: "serial", of: d.program) == qoses.map { "serial.\($0.rawValue)" })
  }

  @Test func anExplicitPriorityWinsOverQoSEvenWhenItIsNormal() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 2, suspended: true)],
        ops: [
          .init(name: "a", queue: "q", priority: .normal, qos: .userInteractive),
          .init(name: "b", queue: "q", qos: .userInitiated),
          .init(name: "c", queue: "q", priority: .veryLow, qos: .userInteractive),
          .init(name: "d", queue: "q", qos: .background),
        ],
        steps: [.add("a"), .add("b"), .add("c"), .add("d"), .setMax("q", 1), .resume("q")]
          + [.finishEverything]))
    #expect(d.virtual.started == ["b", "a", "c", "d"])
  }

  @Test func aReadyLowerPriorityOperationStartsBeforeAnUnreadyHigherOne() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true), .init(name: "other")],
        ops: [
          .init(name: "blocker", queue: "other"),
          .init(name: "high", queue: "q", priority: .veryHigh, dependencies: ["blocker"]),
          .init(name: "low", queue: "q", priority: .veryLow),
        ],
        steps: [
          .add("blocker"), .add("high"), .add("low"), .resume("q"), .finish("low"),
          .finish("blocker"), .finish("high"),
        ]))
    #expect(d.virtual.started == ["blocker", "low", "high"])
  }

  @Test func fifoWithinAPriorityFollowsEnqueueOrderNotReadiness() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1), .init(name: "other")],
        ops: [
          .init(name: "x", queue: "other"), .init(name: "a", queue: "q"),
          .init(name: "b", queue: "q", dependencies: ["x"]), .init(name: "c", queue: "q"),
        ],
        steps: [
          .add("x"), .add("a"), .add("b"), .add("c"), .finish("x"), .finish("a"), .finish("b"),
          .finish("c"),
        ]))
    // c was ready long before b, but b was added first.
    #expect(d.virtual.started == ["x", "a", "b", "c"])
  }

  // MARK: - Dependencies

  @Test func dependenciesAcrossQueuesWaitForTheOtherQueue() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "net", maxConcurrent: 2), .init(name: "img", maxConcurrent: 1)],
        ops: [
          .init(name: "resize", queue: "img", dependencies: ["download"]),
          .init(name: "download", queue: "net"),
          .init(name: "upload", queue: "net", dependencies: ["resize"]),
          .init(name: "icon", queue: "img"),
        ],
        steps: [
          .add("resize"), .add("upload"), .add("icon"), .add("download"), .finish("download"),
          .finish("icon"), .finish("resize"), .finish("upload"),
        ]))
    #expect(d.virtual.startsPerStep[2] == ["icon"])
    #expect(d.virtual.started == ["icon", "download", "resize", "upload"])
  }

  @Test func anOperationWaitsForEveryDependencyEvenOnesAddedLater() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q"), .init(name: "later", suspended: true)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "b", queue: "later"),
          .init(name: "c", queue: "q", dependencies: ["a", "b"]),
        ],
        steps: [.add("c"), .add("a"), .finish("a"), .add("b"), .resume("later"), .finish("b")]
          + [.finish("c")]))
    #expect(d.virtual.startsPerStep[5] == ["c"])
  }

  // MARK: - Suspension and the limit

  @Test func suspendingStopsOnlyNewStarts() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 2)],
        ops: ["a", "b", "c", "d"].map { .init(name: $0, queue: "q") },
        steps: [
          .add("a"), .add("b"), .add("c"), .add("d"), .suspend("q"), .finish("a"), .resume("q"),
          .suspend("q"), .finish("b"), .finish("c"), .resume("q"), .finish("d"),
        ]))
    #expect(d.virtual.startsPerStep[6] == ["c"])
    #expect(d.virtual.startsPerStep[10] == ["d"])
  }

  @Test func zeroStartsNothingAndRaisingTheLimitStartsTheBestAtOnce() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 0)],
        ops: [
          .init(name: "a", queue: "q", priority: .low),
          .init(name: "b", queue: "q", priority: .high),
          .init(name: "c", queue: "q", priority: .normal),
          .init(name: "d", queue: "q", priority: .veryHigh),
        ],
        steps: [
          .add("a"), .add("b"), .add("c"), .add("d"), .setMax("q", 2), .finish("d"),
          .setMax("q", nil), .finishEverything,
        ]))
    #expect(d.virtual.startsPerStep[3].isEmpty)
    #expect(Set(d.virtual.startsPerStep[4]) == ["d", "b"])
    #expect(d.virtual.startsPerStep[5] == ["c"])
    #expect(d.virtual.startsPerStep[6] == ["a"])
  }

  @Test func loweringTheLimitStopsNothingThatRuns() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 3)],
        ops: ["a", "b", "c", "d", "e"].map { .init(name: $0, queue: "q") },
        steps: [
          .add("a"), .add("b"), .add("c"), .add("d"), .add("e"), .setMax("q", 1), .finish("a"),
          .finish("b"), .finish("c"), .finish("d"), .finish("e"),
        ]))
    #expect(d.virtual.startsPerStep[6...7].allSatisfy { $0.isEmpty })
    #expect(d.virtual.startsPerStep[8] == ["d"])
  }

  // MARK: - Cancellation

  @Test func aCancelledOperationNeverExecutesButWaitsForItsTurn() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true)],
        ops: ["a", "b", "c"].map { .init(name: $0, queue: "q") },
        steps: [.add("a"), .add("b"), .add("c"), .cancel("b"), .resume("q"), .finish("a")]
          + [.finish("c")]))
    #expect(d.virtual.started == ["a", "c"])
    // b still needed the slot: it finishes only when a gives it back.
    #expect(d.virtual.finishesPerStep[3].isEmpty)
    #expect(d.virtual.finishesPerStep[5] == ["a", "b"])
    #expect(d.virtual.cancelled == ["b"])
  }

  @Test func cancellingAnUnstartedOperationMakesItReadyDespiteItsDependencies() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q")],
        ops: [.init(name: "a", queue: "q"), .init(name: "b", queue: "q", dependencies: ["a"])],
        steps: [.add("a"), .add("b"), .cancel("b"), .finish("a")]))
    #expect(d.virtual.finishesPerStep[2] == ["b"])
  }

  @Test func dependentsOfACancelledDependencyStillRun() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true), .init(name: "other")],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "b", queue: "q", dependencies: ["a"]),
          .init(name: "x", queue: "other", dependencies: ["a"]),
        ],
        steps: [.add("a"), .add("b"), .add("x"), .cancel("a"), .resume("q")]
          + [.finishEverything]))
    #expect(Set(d.virtual.startsPerStep[4]) == ["b", "x"])
    #expect(d.virtual.cancelled == ["a"])
  }

  @Test func aCancelledOperationNeedsASlotToFinish() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 0), .init(name: "s", suspended: true)],
        ops: [.init(name: "a", queue: "q"), .init(name: "b", queue: "s")],
        steps: [.add("a"), .add("b"), .cancel("a"), .cancel("b"), .setMax("q", 1), .resume("s")]))
    #expect(d.virtual.finishesPerStep[2...3].allSatisfy { $0.isEmpty })
    #expect(d.virtual.finishesPerStep[4] == ["a"])
    #expect(d.virtual.finishesPerStep[5] == ["b"])
    #expect(d.virtual.started.isEmpty)
  }

  @Test func cancellingOneMemberOfACycleLetsTheOthersRun() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q")],
        ops: [
          .init(name: "a", queue: "q", dependencies: ["b"]),
          .init(name: "b", queue: "q", dependencies: ["c"]),
          .init(name: "c", queue: "q", dependencies: ["a"]),
        ],
        steps: [.add("a"), .add("b"), .add("c"), .cancel("b"), .finish("a"), .finish("c")]))
    #expect(d.virtual.startsPerStep[2].isEmpty)
    #expect(d.virtual.startsPerStep[3] == ["a"])
    #expect(d.virtual.started == ["a", "c"])
  }

  @Test func cancelAllOnASuspendedQueueStillReleasesDependentsElsewhere() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", suspended: true), .init(name: "other")],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "b", queue: "q", dependencies: ["a"]),
          .init(name: "x", queue: "other", dependencies: ["b"]), .init(name: "c", queue: "q"),
        ],
        steps: [
          .add("a"), .add("b"), .add("x"), .cancelAll("q"), .add("c"), .resume("q"), .finish("x"),
          .finish("c"),
        ]))
    #expect(Set(d.virtual.startsPerStep[5]) == ["x", "c"])
    #expect(d.virtual.cancelled == ["a", "b"])
  }

  @Test func cancelAllOnARunningSerialQueue() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "b", queue: "q"),
          .init(name: "c", queue: "q", priority: .veryHigh, dependencies: ["b"]),
        ],
        steps: [.add("a"), .add("b"), .add("c"), .cancelAll("q"), .finish("a")]))
    #expect(d.virtual.started == ["a"])
    #expect(Set(d.virtual.finishesPerStep[4]) == ["a", "b", "c"])
    #expect(d.virtual.cancelled == ["a", "b", "c"])
  }

  // MARK: - Barriers

  @Test func aBarrierWaitsForEverythingBeforeItAndHoldsBackEverythingAfter() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 3)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "b", queue: "q"),
          .init(name: "fence", queue: "q", barrier: true), .init(name: "c", queue: "q"),
          .init(name: "d", queue: "q", priority: .veryHigh),
        ],
        steps: [
          .add("a"), .add("b"), .add("fence"), .add("c"), .add("d"), .finish("b"), .finish("a"),
          .finish("fence"), .finish("c"), .finish("d"),
        ]))
    #expect(d.virtual.startsPerStep[5].isEmpty)
    #expect(d.virtual.startsPerStep[6] == ["fence"])
    #expect(Set(d.virtual.startsPerStep[7]) == ["c", "d"])
  }

  @Test func aBarrierGoesBeforeEveryOtherReadyOperation() async throws {
    // x is ready (cancelled) and veryHigh; the barrier still takes the freed slot first.
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "fence", queue: "q", barrier: true),
          .init(name: "x", queue: "q", priority: .veryHigh),
        ],
        steps: [
          .add("a"), .add("fence"), .add("x"), .resume("q"), .cancel("x"), .finish("a"),
          .finish("fence"),
        ]))
    #expect(d.virtual.startsPerStep[5] == ["fence"])
    #expect(d.virtual.finishesPerStep[5] == ["a"])
    #expect(d.virtual.finishesPerStep[6] == ["x"])
  }

  @Test func operationsAddedWhileABarrierRunsTakeSlotsButStartAfterIt() async throws {
    // Added after the barrier was dispatched, x, y and z do not depend on it: x takes the free slot
    // at once, but its work waits behind the barrier on the queue's dispatch queue.
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 2)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "fence", queue: "q", barrier: true),
          .init(name: "x", queue: "q", priority: .low),
          .init(name: "y", queue: "q", priority: .normal),
          .init(name: "z", queue: "q", priority: .high),
        ],
        steps: [
          .add("a"), .add("fence"), .finish("a"), .add("x"), .add("y"), .add("z"),
          .finish("fence"), .finish("x"), .finish("z"), .finish("y"),
        ]))
    #expect(d.virtual.startsPerStep[3...5].allSatisfy { $0.isEmpty })
    #expect(Set(d.virtual.startsPerStep[6]) == ["x", "z"])
  }

  @Test func consecutiveBarriersRunInTurn() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 3)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "first", queue: "q", barrier: true),
          .init(name: "b", queue: "q", priority: .veryHigh),
          .init(name: "second", queue: "q", barrier: true), .init(name: "c", queue: "q"),
        ],
        steps: [
          .add("a"), .add("first"), .add("b"), .add("second"), .add("c"), .finish("a"),
          .finish("first"), .finish("b"), .finish("second"), .finish("c"),
        ]))
    #expect(d.virtual.started == ["a", "first", "b", "second", "c"])
    #expect(d.virtual.startsPerStep[7] == ["second"])
  }

  @Test func workDispatchedBehindARunningBarrierStartsAfterItEvenOnceSuspended() async throws {
    // x and y are dispatched while the barrier runs (y once the limit is raised); suspending the queue
    // afterwards does not hold them back: they already have their slots. z, not dispatched, waits.
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 2)],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "fence", queue: "q", barrier: true),
          .init(name: "x", queue: "q"), .init(name: "y", queue: "q"), .init(name: "z", queue: "q"),
          .init(name: "w", queue: "q"),
        ],
        steps: [
          .add("a"), .add("fence"), .finish("a"), .add("x"), .add("y"), .setMax("q", 4),
          .add("w"), .cancel("w"), .add("z"), .suspend("q"), .finish("fence"), .finish("x"),
          .finish("y"), .resume("q"), .finish("z"),
        ]))
    #expect(d.virtual.startsPerStep[3...9].allSatisfy { $0.isEmpty })
    #expect(Set(d.virtual.startsPerStep[10]) == ["x", "y"])
    #expect(d.virtual.finishesPerStep[10] == ["w"])
    #expect(d.virtual.startsPerStep[13] == ["z"])
  }

  @Test func aBarrierOnAnEmptyQueueRunsAtOnceEvenWhenSuspended() async throws {
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q", maxConcurrent: 1, suspended: true)],
        ops: [
          .init(name: "fence", queue: "q", barrier: true), .init(name: "a", queue: "q"),
          .init(name: "b", queue: "q", priority: .veryHigh),
        ],
        steps: [
          .add("fence"), .add("a"), .finish("fence"), .add("b"), .resume("q"), .finish("b"),
          .finish("a"),
        ]))
    #expect(d.virtual.startsPerStep[0] == ["fence"])
    #expect(d.virtual.startsPerStep[4] == ["b"])
  }

  @Test func cancelAllWhileABarrierRunsCancelsWhatWaitsBehindIt() async throws {
    // (Cancelling a barrier that is still waiting is not tried: swift-corelibs-foundation starts and
    // frees it first, and what it waited for later follows a dangling pointer to it.)
    let d = try await agree(
      DiffProgram(
        queues: [.init(name: "q")],
        ops: [
          .init(name: "a", queue: "q"), .init(name: "fence", queue: "q", barrier: true),
          .init(name: "b", queue: "q"), .init(name: "c", queue: "q"),
        ],
        steps: [
          .add("a"), .add("fence"), .add("b"), .finish("a"), .cancelAll("q"), .add("c"),
          .finish("fence"), .finish("c"),
        ]))
    #expect(d.virtual.startsPerStep[3] == ["fence"])
    // b, cancelled, is ready at once and takes a slot, but finishes only behind the barrier, like c.
    #expect(d.virtual.finishesPerStep[4...5].allSatisfy { $0.isEmpty })
    #expect(d.virtual.startsPerStep[6] == ["c"])
    #expect(d.virtual.finishesPerStep[6] == ["b"])
    #expect(d.virtual.cancelled == ["b"])
  }
}

/// Plays the program on both sides and expects them to agree.
@discardableResult
func agree(_ program: DiffProgram, sourceLocation: SourceLocation = #_sourceLocation) async throws
  -> Differential
{
  let d = try await Differential.run(program)
  #expect(d.problems.isEmpty, "\(d.report)", sourceLocation: sourceLocation)
  return d
}

/// Random programs played on Foundation and on the virtual runtime (see `RandomDiffProgram` for what
/// keeps them deterministic in Foundation).
@Suite struct FoundationDifferentialPropertyTests {
  @Test func randomSerialProgramsAgreeWithFoundation() async {
    await propertyCheck(count: 300, input: RandomDiffProgram.serial) { program in
      let d = try await Differential.run(program)
      #expect(d.problems.isEmpty, "\(d.report)")
    }
  }

  @Test func randomConcurrentProgramsAgreeWithFoundation() async {
    await propertyCheck(count: 300, input: RandomDiffProgram.concurrent) { program in
      let d = try await Differential.run(program)
      #expect(d.problems.isEmpty, "\(d.report)")
    }
  }
}
