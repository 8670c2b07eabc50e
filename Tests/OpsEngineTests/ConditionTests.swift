import OpsEngine
import OpsEvents
import Testing

@Suite struct ConditionTests {
  func conditioned(_ conditions: [ConditionSpec], deps: [String] = []) -> OperationSpec {
    OperationSpec(name: "op", dependencies: deps, conditions: conditions)
  }

  @Test func satisfiedConditionsPassThroughEvaluation() throws {
    let c1 = ConditionSpec(name: "reachable", evaluate: 0.5)
    let c2 = ConditionSpec(name: "authorized", evaluate: 1.0)
    let rt = try makeRuntime(operations: [(conditioned([c1, c2]), "q")])
    rt.run()
    #expect(
      rt.states(of: "op") == [
        .pending, .evaluatingConditions, .ready, .executing, .finishing, .finished,
      ])
    // Conditions are evaluated concurrently: ready after the slower one.
    #expect(
      rt.time {
        if case .state("op", .evaluatingConditions, .ready, _) = $0 { true } else { false }
      }
        == 1.0)
    #expect(
      rt.events.contains {
        $0.kind
          == .conditionResult(
            operation: "op", condition: "reachable", result: .satisfied, error: nil)
          && $0.time == 0.5
      })
  }

  @Test func aFailedConditionCancelsWithItsErrorAndNeverExecutes() throws {
    let c = ConditionSpec(
      name: "loggedIn", check: .scripted(result: .failed, error: "not logged in"), evaluate: 0.5)
    let rt = try makeRuntime(operations: [(conditioned([c]), "q")])
    rt.run()
    #expect(
      rt.states(of: "op") == [.pending, .evaluatingConditions, .ready, .finishing, .finished])
    #expect(rt.startOrder.isEmpty)
    #expect(
      rt.events.contains {
        $0.kind == .cancelled(operation: "op", errors: ["not logged in"], cause: .condition)
      })
    #expect(rt.errors(of: "op") == ["not logged in"])
  }

  @Test func conditionsWaitForDependencies() throws {
    let c = ConditionSpec(name: "c", evaluate: 0.5)
    let rt = try makeRuntime(operations: [
      (op("dep", work: 2), "q"), (conditioned([c], deps: ["dep"]), "q"),
    ])
    rt.run()
    #expect(rt.time { if case .conditionStarted("op", "c") = $0 { true } else { false } } == 2)
  }

  @Test func aProducedDependencyRunsBeforeEvaluationAndAfterOwnDependencies() throws {
    let c = ConditionSpec(name: "loggedIn", evaluate: 0.25, dependency: "login")
    let rt = try makeRuntime(
      operations: [
        (op("fetch", work: 1), "q"), (conditioned([c], deps: ["fetch"]), "q"),
        (op("login", work: 2), "q"),
      ],
      enqueue: false)
    try rt.enqueue("fetch", on: "q")
    try rt.enqueue("op", on: "q")
    rt.run()
    #expect(rt.startOrder == ["fetch", "login", "op"])
    #expect(
      rt.events.contains {
        if case .operationAdded("login", "q", _, _, _, ["fetch"], _, _, _) = $0.kind {
          true
        } else {
          false
        }
      })
    #expect(
      rt.time { if case .conditionStarted("op", "loggedIn") = $0 { true } else { false } } == 3)
  }

  @Test func aSilentConditionProducesNoDependency() throws {
    let c = ConditionSpec(name: "loggedIn", dependency: "login", silent: true)
    let rt = try makeRuntime(
      operations: [(conditioned([c]), "q"), (op("login"), "q")], enqueue: false)
    try rt.enqueue("op", on: "q")
    rt.run()
    #expect(rt.state(of: "login") == .initialized)
    #expect(rt.state(of: "op") == .finished)
  }

  @Test func aNegatedConditionInvertsTheResult() throws {
    let failing = ConditionSpec(
      name: "offline", check: .scripted(result: .failed, error: "online"), negated: true)
    let passing = ConditionSpec(name: "busy", negated: true)
    let rt = try makeRuntime(
      operations: [
        (OperationSpec(name: "a", conditions: [failing]), "q"),
        (OperationSpec(name: "b", conditions: [passing]), "q"),
      ])
    rt.run()
    #expect(rt.isCancelled("a") == false)
    #expect(rt.isCancelled("b"))
    #expect(
      rt.events.contains {
        $0.kind
          == .conditionResult(
            operation: "b", condition: "not(busy)", result: .failed, error: "busy was satisfied")
      })
  }

  @Test func noFailedDependenciesCancelsWhenADependencyFailed() throws {
    let bad = OperationSpec(name: "bad", work: WorkScript(fails: "boom"))
    let guarded = OperationSpec(
      name: "guarded", dependencies: ["bad"],
      conditions: [ConditionSpec(name: "noFailedDependencies", check: .noFailedDependencies)])
    let plain = op("plain", deps: ["bad"])
    let rt = try makeRuntime(operations: [(bad, "q"), (guarded, "q"), (plain, "q")])
    rt.run()
    #expect(rt.isCancelled("guarded"))
    #expect(rt.errors(of: "guarded") == ["dependency bad failed"])
    // Foundation's rule: without the condition, dependents still run.
    #expect(rt.startOrder.contains("plain"))
  }

  @Test func noCancelledDependenciesCancelsWhenADependencyWasCancelled() throws {
    let guarded = OperationSpec(
      name: "guarded", dependencies: ["a"],
      conditions: [ConditionSpec(name: "noCancelledDependencies", check: .noCancelledDependencies)])
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true)], operations: [(op("a"), "q"), (guarded, "q")])
    rt.perform(.cancel(operation: "a"))
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.isCancelled("guarded"))
    #expect(rt.startOrder.isEmpty)
  }

  @Test func conditionEvaluationWaitsWhileTheQueueIsSuspended() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true)],
      operations: [(conditioned([ConditionSpec(name: "c")]), "q")])
    rt.advance(by: 2)
    #expect(rt.state(of: "op") == .pending)
    rt.perform(.resume(queue: "q"))
    rt.run()
    #expect(rt.time { if case .conditionStarted = $0 { true } else { false } } == 2)
  }

  @Test func cancellingDuringEvaluationMakesItReadyAtOnce() throws {
    let rt = try makeRuntime(operations: [
      (conditioned([ConditionSpec(name: "slow", evaluate: 5)]), "q")
    ])
    rt.advance(by: 1)
    rt.perform(.cancel(operation: "op"))
    #expect(rt.state(of: "op") == .finished)
    rt.run()
    #expect(
      rt.events.contains { if case .conditionResult = $0.kind { true } else { false } } == false)
  }
}

@Suite struct ExclusivityTests {
  func exclusive(_ name: String, _ category: String = "Alert", work: Double = 1) -> OperationSpec {
    OperationSpec(name: name, exclusivity: [category], work: WorkScript(duration: work))
  }

  @Test func operationsOfACategoryRunOneAtATimeInFIFOOrder() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "a"), QueueSpec(name: "b")],
      operations: [
        (exclusive("first"), "a"), (exclusive("second"), "b"), (exclusive("third"), "a"),
        (op("free"), "b"),
      ])
    rt.run()
    #expect(rt.startOrder == ["first", "free", "second", "third"])
    #expect(rt.time { if case .didStart("third") = $0 { true } else { false } } == 2)
    #expect(
      rt.events.contains {
        $0.kind == .exclusivityWaiting(operation: "second", category: "Alert", holder: "first")
      })
    #expect(
      rt.events.contains {
        $0.kind == .exclusivityReleased(operation: "first", category: "Alert") && $0.time == 1
      })
  }

  @Test func differentCategoriesDoNotBlockEachOther() throws {
    let rt = try makeRuntime(operations: [(exclusive("a", "X"), "q"), (exclusive("b", "Y"), "q")])
    rt.run()
    #expect(rt.time { if case .didStart("b") = $0 { true } else { false } } == 0)
  }

  @Test func aCancelledWaiterLeavesTheLine() throws {
    let rt = try makeRuntime(
      operations: [
        (exclusive("holder", work: 2), "q"), (exclusive("waiter"), "q"), (exclusive("next"), "q"),
      ])
    rt.advance(by: 0.5)
    rt.perform(.cancel(operation: "waiter"))
    rt.run()
    #expect(rt.startOrder == ["holder", "next"])
    #expect(rt.state(of: "waiter") == .finished)
  }
}

@Suite struct GroupTests {
  func groupRuntime(cancelAt: Double? = nil) throws -> VirtualRuntime {
    let group = OperationSpec(name: "group", children: ["a", "b"])
    let a = op("a", work: 1)
    let b = OperationSpec(
      name: "b",
      work: WorkScript(duration: 2, fails: "bad", produces: [.init(at: 1, operation: "late")]))
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([group, a, b, op("late", work: 3), op("after", deps: ["group"])])
    try rt.enqueue("group", on: "q")
    try rt.enqueue("after", on: "q")
    if let t = cancelAt { rt.schedule(.cancel(operation: "group"), at: t) }
    rt.run()
    return rt
  }

  @Test func groupFinishesAfterAllChildrenIncludingProducedOnes() throws {
    let rt = try groupRuntime()
    #expect(
      rt.events.contains {
        $0.kind
          == .queueAdded(
            queue: "group.children", maxConcurrent: nil, suspended: false, qos: .default)
      })
    #expect(rt.time { if case .didFinish("group", _, _) = $0 { true } else { false } } == 4)
    #expect(rt.time { if case .didStart("after") = $0 { true } else { false } } == 4)
  }

  @Test func childErrorsAggregateIntoTheGroup() throws {
    let rt = try groupRuntime()
    #expect(rt.errors(of: "group") == ["b: bad"])
  }

  @Test func cancellingTheGroupCancelsItsChildren() throws {
    let rt = try groupRuntime(cancelAt: 0.5)
    let causes = rt.events.compactMap {
      if case .cancelled(let o, _, .parent) = $0.kind { o } else { nil }
    }
    #expect(causes == ["a", "b"])
    #expect(rt.state(of: "group") == .finished && rt.isCancelled("group"))
    #expect(rt.state(of: "late") == .initialized)
  }
}
