import OpsEngine
import OpsEvents
import Testing

// Behavioural ports of ProcedureKit's tests, checked against the virtual runtime's public API only.
// Reference: ProcedureKit/ProcedureKit at 67beb37b79235a21ae8afc630e8f01efc9b827a4. Each test names the
// ProcedureKit test (file and function) it ports, or the source lines that state the rule when no
// ProcedureKit test states it directly. docs/SEMANTICS.md lists the rules with their references.

extension VirtualRuntime {
  fileprivate func pkTime(_ predicate: (EventKind) -> Bool) -> Double? {
    events.first { predicate($0.kind) }?.time
  }
  fileprivate func pkIndex(_ predicate: (EventKind) -> Bool) -> Int? {
    events.firstIndex { predicate($0.kind) }
  }
  fileprivate func pkStarted(_ op: String) -> Double? {
    pkTime { if case .didStart(op) = $0 { true } else { false } }
  }
  fileprivate func pkFinished(_ op: String) -> Double? {
    pkTime { if case .didFinish(op, _, _) = $0 { true } else { false } }
  }
  fileprivate func pkCancelled(_ op: String) -> Double? {
    pkTime { if case .cancelled(op, _, _) = $0 { true } else { false } }
  }
  fileprivate func pkCancelEvents(_ op: String) -> [EventKind] {
    events.map(\.kind).filter { if case .cancelled(op, _, _) = $0 { true } else { false } }
  }
  /// The time `op` moved into `state`.
  fileprivate func pkEntered(_ op: String, _ state: OperationState) -> Double? {
    pkTime { if case .state(op, _, state, _) = $0 { true } else { false } }
  }
}

private func spec(
  _ name: String, work: Double = 1, fails: String? = nil, checkEvery: Double = 0.25,
  deps: [String] = [], conditions: [ConditionSpec] = [], exclusivity: [String] = [],
  priority: QueuePriority? = nil, cancellation: CancellationMode = .cooperative,
  timeout: Double? = nil, children: [String] = [], produces: [WorkScript.Production] = []
) -> OperationSpec {
  OperationSpec(
    name: name, priority: priority, dependencies: deps, conditions: conditions,
    exclusivity: exclusivity, cancellation: cancellation, timeout: timeout, children: children,
    work: WorkScript(duration: work, checkEvery: checkEvery, fails: fails, produces: produces))
}

private func failing(_ name: String, _ error: String, after seconds: Double) -> ConditionSpec {
  ConditionSpec(name: name, check: .scripted(result: .failed, error: error), evaluate: seconds)
}

private let noFailedDependencies = ConditionSpec(
  name: "noFailedDependencies", check: .noFailedDependencies)

@Suite struct ProcedureKitPortTests {

  // MARK: - (a) Several conditions: the first failure decides at once

  // Ports ConditionTests.swift test__long_running_condition_with_dependency_is_cancelled_if_a_result_
  // is_determined_by_another_condition (the procedure does not wait for the slow condition) and
  // test__multiple_conditions_where_one_fails. Rule: Condition.swift:1064-1069, 1166-1170, 1339-1350;
  // Procedure.swift:1650-1655.
  @Test
  func firstConditionFailureDecidesAtOnce() throws {
    let op = spec(
      "op",
      conditions: [
        ConditionSpec(name: "slow", evaluate: 2), failing("fast", "offline", after: 0.5),
      ])
    let rt = try makeRuntime(operations: [(op, "q")])
    rt.run()
    #expect(rt.pkCancelled("op") == 0.5)
    #expect(
      rt.pkCancelEvents("op") == [
        .cancelled(operation: "op", errors: ["offline"], cause: .condition)
      ])
    #expect(rt.pkFinished("op") == 0.5)
    #expect(rt.pkStarted("op") == nil)
    // The outstanding evaluation is abandoned: its result is never reported.
    #expect(
      rt.events.contains {
        if case .conditionResult("op", "slow", _, _) = $0.kind { true } else { false }
      } == false)
  }

  // Ports ConditionTests.swift test__multiple_conditions_where_all_fail: the procedure is cancelled
  // with the single error of the failure that decided (FalseCondition), not an aggregate.
  // Rule: Condition.swift:1157-1170 (later results are dropped once a result is known).
  @Test
  func severalFailuresReportOnlyTheDecidingOne() throws {
    let op = spec(
      "op", conditions: [failing("first", "e1", after: 0.5), failing("second", "e2", after: 1)])
    let rt = try makeRuntime(operations: [(op, "q")])
    rt.run()
    #expect(rt.isCancelled("op"))
    #expect(rt.errors(of: "op") == ["e1"])
  }

  // Ports ConditionTests.swift test__procedure_cancelled_while_conditions_are_being_evaluated_
  // finishes_before_blocked_condition. Rule: Procedure.swift:1067-1074, 1592-1600.
  @Test func cancellingDuringEvaluationFinishesWithoutWaitingForTheCondition() throws {
    let op = spec("op", conditions: [ConditionSpec(name: "blocked", evaluate: 10)])
    let rt = try makeRuntime(operations: [(op, "q")])
    rt.schedule(.cancel(operation: "op"), at: 1)
    rt.run()
    #expect(rt.pkFinished("op") == 1)
    #expect(rt.pkStarted("op") == nil)
    #expect(rt.isCancelled("op"))
  }

  // MARK: - (b) A condition's produced dependency

  // Rule: Condition.swift:1356-1445 (only the condition with dependencies is wrapped in an operation
  // that waits for them; the others are evaluated at once) and Procedure.swift:585-604 (the
  // procedure itself waits only for its own dependencies and the evaluator). Cf. ConditionTests.swift
  // test__long_running_condition_with_dependency_is_cancelled_if_a_result_is_determined_by_another_
  // condition, where the second condition is decided while the produced dependency still runs.
  @Test()
  func aProducedDependencyDelaysOnlyItsOwnCondition() throws {
    let op = spec(
      "op",
      conditions: [
        ConditionSpec(name: "loggedIn", evaluate: 0.25, dependency: "login"),
        ConditionSpec(name: "reachable", evaluate: 0.5),
      ])
    let rt = try makeRuntime(
      operations: [(op, "q"), (spec("login", work: 2), "q")], enqueue: false)
    try rt.enqueue("op", on: "q")
    rt.advance(by: 1)
    #expect(rt.state(of: "op") == .evaluatingConditions)
    rt.run()
    #expect(
      rt.pkTime { if case .conditionStarted("op", "reachable") = $0 { true } else { false } } == 0)
    #expect(
      rt.pkTime {
        if case .conditionResult("op", "reachable", .satisfied, _) = $0 { true } else { false }
      } == 0.5)
    #expect(
      rt.pkTime { if case .conditionStarted("op", "loggedIn") = $0 { true } else { false } } == 2)
    #expect(rt.pkEntered("op", .ready) == 2.25)
    #expect(rt.pkStarted("op") == 2.25)
  }

  // Ports ConditionTests.swift test__long_running_condition_with_dependency_is_cancelled_if_a_result_
  // is_determined_by_another_condition. Rule: Condition.swift:1339-1347, 992-1003 (the evaluation
  // context cancels its queue, which holds the produced dependencies).
  @Test
  func aProducedDependencyIsCancelledOnceTheOutcomeIsKnown() throws {
    let op = spec(
      "op",
      conditions: [
        ConditionSpec(name: "loggedIn", dependency: "login"),
        failing("reachable", "offline", after: 0.5),
      ])
    let rt = try makeRuntime(
      operations: [(op, "q"), (spec("login", work: 4), "q")], enqueue: false)
    try rt.enqueue("op", on: "q")
    rt.run()
    #expect(rt.pkCancelled("login") == 0.5)
    #expect(rt.pkFinished("login") == 0.75)
    #expect(
      rt.pkCancelEvents("op") == [
        .cancelled(operation: "op", errors: ["offline"], cause: .condition)
      ])
    #expect(rt.pkFinished("op") == 0.5)
    #expect(rt.pkStarted("op") == nil)
  }

  // Ports ConditionTests.swift test__procedure_cancelled_while_conditions_are_being_evaluated_
  // cancels_condition_produced_dependencies. Rule: Procedure.swift:1074 → 1592-1600 → Condition.swift
  // 992-1003. An unrelated operation is not touched.
  @Test()
  func cancellingTheOperationCancelsItsProducedDependency() throws {
    let op = spec("op", conditions: [ConditionSpec(name: "loggedIn", dependency: "login")])
    let rt = try makeRuntime(
      operations: [(op, "q"), (spec("login", work: 4), "q"), (spec("bystander", work: 4), "q")],
      enqueue: false)
    try rt.enqueue("op", on: "q")
    try rt.enqueue("bystander", on: "q")
    rt.schedule(.cancel(operation: "op"), at: 1)
    rt.run()
    #expect(rt.pkFinished("op") == 1)
    #expect(rt.pkCancelled("login") == 1)
    #expect(rt.pkFinished("login") == 1.25)
    #expect(rt.isCancelled("bystander") == false)
  }

  // Ports ConditionTests.swift test__condition_dependency_requirement_none_still_evaluates_when_
  // dependency_fails. Rule: Condition.swift:1200-1203 (no requirements by default).
  @Test func aFailedProducedDependencyDoesNotFailItsCondition() throws {
    let op = spec("op", conditions: [ConditionSpec(name: "loggedIn", dependency: "login")])
    let rt = try makeRuntime(
      operations: [(op, "q"), (spec("login", fails: "bad password"), "q")], enqueue: false)
    try rt.enqueue("op", on: "q")
    rt.run()
    #expect(rt.errors(of: "login") == ["bad password"])
    #expect(rt.startOrder == ["login", "op"])
    #expect(rt.isCancelled("op") == false)
    #expect(rt.errors(of: "op").isEmpty)
  }

  // MARK: - (c) NoFailedDependenciesCondition

  // Ports NoFailedDependenciesConditionTests.swift test__procedure_with_successful_dependency_succeeds.
  @Test func noFailedDependenciesPassesWhenEveryDependencySucceeded() throws {
    let rt = try makeRuntime(operations: [
      (spec("dep"), "q"), (spec("op", deps: ["dep"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.isCancelled("op") == false)
    #expect(rt.startOrder == ["dep", "op"])
  }

  // Ports NoFailedDependenciesConditionTests.swift test__procedure_with_cancelled_dependency_fails
  // (error: dependenciesCancelled). Rule: NoFailedDependenciesCondition.swift:43, 52-53.
  @Test
  func noFailedDependenciesFailsOnACancelledDependency() throws {
    let rt = try makeRuntime(operations: [
      (spec("dep", work: 2), "q"),
      (spec("op", deps: ["dep"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.schedule(.cancel(operation: "dep"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("op"))
    #expect(rt.pkStarted("op") == nil)
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("cancelled") == true)
  }

  // Ports NoFailedDependenciesConditionTests.swift test__procedure_with_mixture_fails (one dependency
  // succeeded, one was cancelled: dependenciesCancelled).
  @Test
  func noFailedDependenciesFailsOnAMixtureWithACancelledDependency() throws {
    let rt = try makeRuntime(operations: [
      (spec("good"), "q"), (spec("dropped", work: 2), "q"),
      (spec("op", deps: ["good", "dropped"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.schedule(.cancel(operation: "dropped"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("op"))
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("cancelled") == true)
  }

  // Ports NoFailedDependenciesConditionTests.swift test__procedure_with_errored_dependency_fails
  // (error: dependenciesFailed). Rule: NoFailedDependenciesCondition.swift:44-51.
  @Test func noFailedDependenciesFailsOnAFailedDependency() throws {
    let rt = try makeRuntime(operations: [
      (spec("dep", fails: "boom"), "q"),
      (spec("op", deps: ["dep"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.isCancelled("op"))
    #expect(rt.pkStarted("op") == nil)
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("failed") == true)
  }

  // A dependency cancelled with an error has failed (ProcedureProcotol.swift:81, `error != nil`), so
  // the condition reports dependenciesFailed. Cf. ConditionTests.swift test__condition_dependency_
  // requirement_noFailed_skips_evaluate_when_dependency_iscancelled_with_errors. Here the error is a
  // timeout. Rule: NoFailedDependenciesCondition.swift:44-51.
  @Test()
  func noFailedDependenciesFailsOnADependencyCancelledWithAnError() throws {
    let rt = try makeRuntime(operations: [
      (spec("dep", work: 2, timeout: 0.5), "q"),
      (spec("op", deps: ["dep"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.isCancelled("dep"))
    #expect(rt.isCancelled("op"))
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("failed") == true)
  }

  // A dependency whose own condition failed was cancelled with the condition's error
  // (Procedure.swift:1650-1652), so it has failed: dependenciesFailed.
  // Rule: NoFailedDependenciesCondition.swift:44-51.
  @Test
  func noFailedDependenciesFailsOnADependencyWhoseConditionFailed() throws {
    let rt = try makeRuntime(operations: [
      (spec("dep", conditions: [failing("loggedIn", "not logged in", after: 0)]), "q"),
      (spec("op", deps: ["dep"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.errors(of: "dep") == ["not logged in"])
    #expect(rt.isCancelled("op"))
    #expect(rt.pkStarted("op") == nil)
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("failed") == true)
  }

  // Failures are checked before cancellations (NoFailedDependenciesCondition.swift:50-53): a failed
  // and a cancelled dependency give dependenciesFailed. Cf. NoFailedDependenciesConditionTests.swift
  // test__procedure_with_failures_and_cancellations_with_ignore_cancellations.
  @Test func noFailedDependenciesReportsFailuresBeforeCancellations() throws {
    let rt = try makeRuntime(operations: [
      (spec("bad", fails: "boom"), "q"), (spec("dropped", work: 2), "q"),
      (spec("op", deps: ["bad", "dropped"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.schedule(.cancel(operation: "dropped"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("op"))
    #expect(rt.errors(of: "op").count == 1)
    #expect(rt.errors(of: "op").first?.contains("failed") == true)
  }

  // MARK: - (d) Mutual exclusivity

  // Ports MutualExclusivityTests.swift test__procedure_mutual_exclusivity_internal_API_contract
  // ("requestLock" comes after the conditions). Rule: Procedure.swift:1658-1685. B, added later but
  // requesting first, holds the lock while A's condition is still being evaluated.
  @Test func theLockIsRequestedOnlyAfterTheConditionsPass() throws {
    let a = spec("A", conditions: [ConditionSpec(name: "slow", evaluate: 1)], exclusivity: ["x"])
    let rt = try makeRuntime(
      operations: [(a, "q"), (spec("B", exclusivity: ["x"]), "q")], enqueue: false)
    try rt.enqueue("A", on: "q")
    try rt.enqueue("B", on: "q", at: 0.5)
    rt.run()
    #expect(rt.pkStarted("B") == 0.5)
    #expect(rt.pkStarted("A") == 1.5)
  }

  // Ports MutualExclusivityTests.swift test__procedure_mutual_exclusivity_internal_API_contract
  // ("Requesting the lock should occur *prior* to the Procedure being ready"). Rule:
  // Procedure.swift:1678-1685 (the evaluator finishes, so the procedure becomes ready, only once
  // the lock is granted), ProcedureQueue.swift:452-479, MutualExclusion.swift:86-103.
  @Test
  func theLockIsGrantedBeforeTheOperationBecomesReady() throws {
    let rt = try makeRuntime(operations: [
      (spec("A", exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x"]), "q"),
    ])
    rt.advance(by: 0.5)
    // B waits for the lock inside its evaluation (ProcedureKit: the EvaluateConditions operation).
    if let s = rt.state(of: "B") { #expect(s < .ready) }
    rt.run()
    for name in ["A", "B"] {
      let acquired = rt.pkIndex {
        if case .exclusivityAcquired(name, "x") = $0 { true } else { false }
      }
      let ready = rt.pkIndex { if case .state(name, _, .ready, _) = $0 { true } else { false } }
      #expect(acquired != nil && ready != nil && acquired! < ready!)
    }
    #expect(rt.pkEntered("B", .ready) == 1)
  }

  // Ports MutualExclusivityTests.swift test__procedure_mutual_exclusivity_internal_API_contract
  // (lines 96-111: a procedure whose only conditions are MutuallyExclusive requests the lock while it
  // is not ready) and test__mutually_exclusive_operations_can_be_executed (lines 40-50). Rule:
  // MutuallyExclusive is a condition (MutualExclusion.swift:14-27), so the procedure gets an
  // EvaluateConditions operation (Procedure.swift:576-596), which requests the lock once the
  // conditions passed and finishes, letting the procedure become ready, only when it is granted
  // (Procedure.swift:1666-1685, 322-355). opsview shows that evaluation as `evaluatingConditions`.
  @Test func anOperationWhoseOnlyConditionIsExclusivityWaitsForTheLockWhileEvaluating() throws {
    let rt = try makeRuntime(operations: [
      (spec("A", exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x"]), "q"),
    ])
    rt.advance(by: 0.5)
    #expect(rt.state(of: "B") == .evaluatingConditions)
    rt.run()
    for name in ["A", "B"] {
      let moves = rt.events.compactMap { e -> StateCause? in
        if case .state(name, .pending, .evaluatingConditions, let cause) = e.kind {
          cause
        } else {
          nil
        }
      }
      #expect(moves == [.noDependencies])
      let granted = rt.events.compactMap { e -> StateCause? in
        if case .state(name, .evaluatingConditions, .ready, let cause) = e.kind {
          cause
        } else {
          nil
        }
      }
      #expect(granted == [.lockAcquired(category: "x")])
      #expect(
        rt.states(of: name) == [
          .pending, .evaluatingConditions, .ready, .executing, .finishing, .finished,
        ])
      // The lock is requested (and granted) inside the evaluation, before the operation is ready.
      let evaluating = try #require(
        rt.pkIndex {
          if case .state(name, .pending, .evaluatingConditions, _) = $0 { true } else { false }
        })
      let acquired = try #require(
        rt.pkIndex { if case .exclusivityAcquired(name, "x") = $0 { true } else { false } })
      let ready = try #require(
        rt.pkIndex { if case .state(name, _, .ready, _) = $0 { true } else { false } })
      #expect(evaluating < acquired && acquired < ready)
    }
    let waiting = try #require(
      rt.pkIndex { $0 == .exclusivityWaiting(operation: "B", category: "x", holder: "A") })
    let bEvaluating = try #require(
      rt.pkIndex {
        if case .state("B", .pending, .evaluatingConditions, _) = $0 { true } else { false }
      })
    #expect(bEvaluating < waiting)
    #expect(rt.pkEntered("B", .evaluatingConditions) == 0)
    #expect(rt.pkEntered("B", .ready) == 1)
  }

  // Ports MutualExclusivityTests.swift test__mutual_exclusivity_with_dependencies (lines 245-273):
  // the evaluator depends on the procedure's dependencies (Procedure.swift:585-588), so the dependent
  // begins evaluating, and asks for the lock, only once its dependency finished.
  @Test func anExclusiveDependentEvaluatesOnceItsDependencyFinished() throws {
    let rt = try makeRuntime(
      operations: [
        (spec("p2", deps: ["p1"], exclusivity: ["x"]), "q"), (spec("p1", exclusivity: ["x"]), "q"),
      ])
    rt.run()
    #expect(
      rt.events.contains {
        $0.kind
          == .state(
            operation: "p2", from: .pending, to: .evaluatingConditions,
            cause: .dependencyFinished("p1", of: 1))
          && $0.time == 1
      })
    #expect(
      rt.events.contains {
        $0.kind
          == .state(
            operation: "p2", from: .evaluatingConditions, to: .ready,
            cause: .lockAcquired(category: "x"))
      })
  }

  // Condition evaluation waits while the queue is suspended (ProcedureQueue.swift:534-550), and an
  // operation whose only condition is MutuallyExclusive has one to evaluate: it stays pending, not
  // holding the lock, until its queue resumes.
  @Test func anExclusiveOperationOnASuspendedQueueWaitsToEvaluate() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", suspended: true), QueueSpec(name: "other")],
      operations: [(spec("A", exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x"]), "other")])
    rt.schedule(.resume(queue: "q"), at: 0.5)
    rt.run()
    #expect(rt.pkStarted("B") == 0)
    #expect(rt.pkEntered("A", .evaluatingConditions) == 0.5)
    #expect(rt.pkStarted("A") == 1)
    #expect(
      rt.events.contains {
        $0.kind
          == .state(
            operation: "A", from: .pending, to: .evaluatingConditions, cause: .queueResumed("q"))
      })
  }

  // Ports MutualExclusivityTests.swift test__mutually_exclusive_operation_are_run_exclusively.
  // FIFO in request order, whatever the priority. Rule: MutualExclusion.swift:110-117, 129-148.
  @Test func operationsOfACategoryRunOneAtATimeInRequestOrder() throws {
    let rt = try makeRuntime(
      operations: [
        (spec("a", exclusivity: ["x"]), "q"), (spec("b", exclusivity: ["x"]), "q"),
        (spec("c", exclusivity: ["x"], priority: .veryHigh), "q"),
      ], enqueue: false)
    try rt.enqueue("a", on: "q")
    try rt.enqueue("b", on: "q", at: 0.1)
    try rt.enqueue("c", on: "q", at: 0.2)
    rt.run()
    #expect(rt.startOrder == ["a", "b", "c"])
    #expect([rt.pkStarted("a"), rt.pkStarted("b"), rt.pkStarted("c")] == [0, 1, 2])
  }

  // An operation that got the lock but waits for a slot of its queue keeps the lock: a later
  // request on another queue must wait. Rule: Procedure.swift:1678-1685 (granted before ready),
  // 692-715 (claimed when started), ProcedureQueue.swift:470-474, 488-520; released only at finish
  // (Procedure.swift:1297-1300). Cf. MutualExclusivityTests.swift test__mutually_exclusive_
  // operations_added_concurrently_are_run_exclusively.
  @Test()
  func anOperationWaitingForAQueueSlotKeepsItsPlace() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "serial", maxConcurrent: 1), QueueSpec(name: "other")],
      operations: [
        (spec("blocker"), "serial"), (spec("A", exclusivity: ["x"]), "serial"),
        (spec("B", exclusivity: ["x"]), "other"),
      ], enqueue: false)
    try rt.enqueue("blocker", on: "serial")
    try rt.enqueue("A", on: "serial")
    try rt.enqueue("B", on: "other", at: 0.5)
    rt.run()
    #expect(rt.pkStarted("A") == 1)
    #expect(rt.pkStarted("B") == 2)
    #expect(rt.startOrder == ["blocker", "A", "B"])
  }

  // Several categories are requested together; a request queues in every category at once, so a
  // later request for only one of them waits behind it. Rule: MutualExclusion.swift:68-117.
  @Test func severalCategoriesAreRequestedTogether() throws {
    let rt = try makeRuntime(
      operations: [
        (spec("A", exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x", "y"]), "q"),
        (spec("C", exclusivity: ["y"]), "q"),
      ], enqueue: false)
    try rt.enqueue("A", on: "q")
    try rt.enqueue("B", on: "q", at: 0.1)
    try rt.enqueue("C", on: "q", at: 0.2)
    rt.run()
    #expect(rt.pkStarted("B") == 1)
    #expect(rt.pkStarted("C") == 2)
  }

  // Ports MutualExclusivityTests.swift test__procedure_mutual_exclusivity_internal_API_contract
  // ("unlock" after the procedure finished). Rule: Procedure.swift:1282-1300; also for a cancelled
  // holder, which releases when it finishes.
  @Test func theLockIsReleasedWhenTheHolderFinishes() throws {
    let rt = try makeRuntime(operations: [
      (spec("A", work: 2, exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x"]), "q"),
      (spec("C", exclusivity: ["x"]), "q"),
    ])
    rt.schedule(.cancel(operation: "A"), at: 0.5)
    rt.run()
    #expect(rt.pkFinished("A") == 0.75)
    #expect(
      rt.pkTime { if case .exclusivityReleased("A", "x") = $0 { true } else { false } } == 0.75)
    #expect(rt.pkStarted("B") == 0.75)
    #expect(
      rt.pkTime { if case .exclusivityReleased("B", "x") = $0 { true } else { false } } == 1.75)
    #expect(rt.pkStarted("C") == 1.75)
  }

  // Ports MutualExclusivityTests.swift test__mutual_exclusivity_with_dependencies (no deadlock when
  // the dependent is added first).
  @Test func exclusivityWithADependencyDoesNotDeadlock() throws {
    let rt = try makeRuntime(
      operations: [
        (spec("p2", deps: ["p1"], exclusivity: ["x"]), "q"), (spec("p1", exclusivity: ["x"]), "q"),
      ])
    rt.run()
    #expect(rt.startOrder == ["p1", "p2"])
    #expect(rt.state(of: "p2") == .finished)
  }

  // MARK: - (e) Groups

  // Ports GroupTests.swift test__group_cancels_children. Rule: Group.swift:140-143.
  @Test func cancellingAGroupCancelsItsChildren() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      spec("g", children: ["c1", "c2"]), spec("c1", work: 2), spec("c2", work: 3),
    ])
    try rt.enqueue("g", on: "q")
    rt.schedule(.cancel(operation: "g"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("c1") && rt.isCancelled("c2"))
    #expect(rt.pkFinished("g") == 0.75)
    #expect(rt.errors(of: "g").isEmpty)
  }

  // Ports GroupTests.swift test__group_additional_children_are_cancelled_if_group_is_cancelled.
  // Here the late child is produced by a child that ignores cancellation. Rule: Group.swift:382-385
  // (addChildren) and 556-559 (an operation reaching the group's queue by production).
  @Test
  func aChildAddedToACancelledGroupIsCancelledAsItIsAdded() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      spec("g", children: ["c1"]),
      spec("c1", work: 2, cancellation: .ignored, produces: [.init(at: 1, operation: "late")]),
      spec("late"),
    ])
    try rt.enqueue("g", on: "q")
    rt.schedule(.cancel(operation: "g"), at: 0.5)
    rt.run()
    #expect(rt.state(of: "late") == .finished)
    #expect(rt.isCancelled("late"))
    #expect(rt.pkCancelled("late") == 1)
    #expect(rt.pkStarted("late") == nil)
    #expect(rt.pkFinished("g") == 2)
  }

  // Ports GroupTests.swift test__group_exits_correctly_when_child_errors (the group finishes with an
  // error while each child keeps its own). Rule: Group.swift:201-214: the group's error is the first
  // child error (setErrorOnce), not an aggregate. (opsview may prefix it with the child's name.)
  @Test
  func theGroupsErrorIsItsFirstChildError() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      spec("g", children: ["c1", "c2"]), spec("c1", work: 1, fails: "e1"),
      spec("c2", work: 2, fails: "e2"),
    ])
    try rt.enqueue("g", on: "q")
    rt.run()
    #expect(rt.errors(of: "c1") == ["e1"] && rt.errors(of: "c2") == ["e2"])
    #expect(rt.errors(of: "g").count == 1)
    #expect(rt.errors(of: "g").first?.hasSuffix("e1") == true)
  }

  // Ports GroupTests.swift test__group_cancel_with_errors_does_not_collect_errors_sent_to_children.
  // Rule: Group.swift:482-483: once the group is cancelled it collects no child error.
  @Test
  func childErrorsAfterTheGroupWasCancelledAreNotCollected() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      spec("g", children: ["c1"]), spec("c1", work: 2, fails: "e1", cancellation: .ignored),
    ])
    try rt.enqueue("g", on: "q")
    rt.schedule(.cancel(operation: "g"), at: 0.5)
    rt.run()
    #expect(rt.errors(of: "c1") == ["e1"])
    #expect(rt.isCancelled("g"))
    #expect(rt.errors(of: "g").isEmpty)
  }

  // A group cancelled with an error cancels its child procedures with
  // ProcedureKitError.parent(cancelledWithError:) (Group.swift:140-148); the group keeps only its own
  // error (Procedure.swift:1244-1247, Group.swift:482-483). Cf. GroupTests.swift
  // test__group_cancel_with_errors_does_not_collect_errors_sent_to_children.
  @Test
  func aGroupCancelledWithAnErrorPassesItToItsChildren() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([spec("g", timeout: 0.5, children: ["c1"]), spec("c1", work: 2)])
    try rt.enqueue("g", on: "q")
    rt.run()
    #expect(rt.errors(of: "g").count == 1)
    #expect(rt.errors(of: "g").first?.contains("timed out") == true)
    #expect(rt.isCancelled("c1"))
    #expect(rt.errors(of: "c1").count == 1)
  }

  // Ports GroupTests.swift test__group_does_not_finish_before_child_produced_operations_are_finished.
  // Rule: Group.swift:633-701 (CanFinishGroup waits for children added later).
  @Test func aGroupFinishesOnlyAfterChildrenProducedLater() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      spec("g", children: ["c1"]),
      spec("c1", work: 1.5, produces: [.init(at: 1, operation: "late")]), spec("late", work: 2),
    ])
    try rt.enqueue("g", on: "q")
    rt.run()
    #expect(rt.pkFinished("late") == 3)
    #expect(rt.pkFinished("g") == 3)
  }

  // MARK: - (f) Cancelled with an error, then the work fails with another one

  // Rule: Procedure.swift:1046-1049 (cancel(with:) stores its error) and 1244-1247 (finish keeps an
  // error already there: `error ?? finishError`). The timeout cancels with an error; the work ignores
  // cancellation and then fails.
  @Test
  func cancelledWithAnErrorThenFailingWorkKeepsTheFirstError() throws {
    let rt = try makeRuntime(operations: [
      (spec("a", work: 1, fails: "boom", cancellation: .ignored, timeout: 0.5), "q")
    ])
    rt.run()
    #expect(rt.isCancelled("a"))
    #expect(rt.errors(of: "a").count == 1)
    #expect(rt.errors(of: "a").first?.contains("timed out") == true)
  }

  // Ports CancellationTests.swift test__procedure_cancelled_then_finished_from_within_execute
  // (cancel() without an error, then finish(with: error): cancelled, with the error).
  @Test func cancelledWithoutAnErrorThenFailingWorkFinishesWithTheWorkError() throws {
    let rt = try makeRuntime(operations: [
      (spec("a", work: 1, fails: "boom", cancellation: .ignored), "q")
    ])
    rt.schedule(.cancel(operation: "a"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("a"))
    #expect(rt.errors(of: "a") == ["boom"])
  }

  // Ports CancellationTests.swift test__procedure_finished_then_cancelled_from_within_execute and
  // test__cancel_from_willfinish_observer_is_ignored. Rule: Procedure.swift:1017-1020.
  @Test func cancellingAfterFinishingChangesNothing() throws {
    let rt = try makeRuntime(operations: [(spec("a"), "q")])
    rt.run()
    #expect(rt.perform(.cancel(operation: "a")).isApplied == false)
    #expect(rt.isCancelled("a") == false)
    #expect(rt.pkCancelEvents("a").isEmpty)
  }

  // Ports CancellationTests.swift test__cancel_from_didcancel_observer_is_ignored (a second cancel
  // does nothing, its error is not recorded). Rule: Procedure.swift:1021-1026.
  @Test func aSecondCancelIsIgnored() throws {
    let rt = try makeRuntime(operations: [(spec("a", work: 2, cancellation: .ignored), "q")])
    rt.schedule(.cancel(operation: "a"), at: 0.5)
    rt.schedule(.cancel(operation: "a"), at: 1)
    rt.run()
    #expect(rt.pkCancelEvents("a").count == 1)
    #expect(rt.errors(of: "a").isEmpty)
  }

  // MARK: - (g) TimeoutObserver

  // Ports TimeoutObserverTests.swift test__timeout_observer. Rule: TimeoutObserver.swift:74-78.
  @Test func aTimeoutCancelsWithATimeoutError() throws {
    let rt = try makeRuntime(operations: [(spec("a", work: 5, checkEvery: 0.1, timeout: 1), "q")])
    rt.run()
    #expect(rt.pkCancelled("a") == 1)
    #expect(
      rt.events.contains {
        if case .cancelled("a", let errors, .timeout) = $0.kind {
          errors.count == 1 && errors[0].contains("timed out")
        } else {
          false
        }
      })
    #expect(rt.pkFinished("a") == 1.1)
  }

  // The timer starts when execution starts (TimeoutObserver.swift:15-16, 47-54, called from
  // Procedure.swift:722-732), not when the operation is added: waiting for a queue slot is not timed.
  @Test func theTimeoutClockStartsWhenExecutionStarts() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "serial", maxConcurrent: 1)],
      operations: [(spec("blocker"), "serial"), (spec("a", work: 0.3, timeout: 0.5), "serial")])
    rt.run()
    #expect(rt.pkStarted("a") == 1)
    #expect(rt.isCancelled("a") == false)
  }

  // ... and after the exclusivity lock is claimed (Procedure.swift:692-719 before 722-732).
  @Test func theTimeoutClockStartsAfterTheExclusivityLock() throws {
    let rt = try makeRuntime(operations: [
      (spec("holder", exclusivity: ["x"]), "q"),
      (spec("a", work: 0.3, exclusivity: ["x"], timeout: 0.5), "q"),
    ])
    rt.run()
    #expect(rt.pkStarted("a") == 1)
    #expect(rt.isCancelled("a") == false)
  }

  // Ports TimeoutObserverTests.swift test__timeout_observer_where_procedure_is_already_cancelled
  // (before it starts, and while it executes). Rule: TimeoutObserver.swift:76.
  @Test func aTimeoutDoesNothingOnceCancelled() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "serial", maxConcurrent: 1), QueueSpec(name: "q")],
      operations: [
        (spec("blocker"), "serial"), (spec("early", timeout: 0.1), "serial"),
        (spec("running", work: 2, cancellation: .ignored, timeout: 1), "q"),
      ])
    rt.schedule(.cancel(operation: "early"), at: 0.05)
    rt.schedule(.cancel(operation: "running"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("early") && rt.errors(of: "early").isEmpty)
    #expect(rt.isCancelled("running") && rt.errors(of: "running").isEmpty)
    #expect(rt.pkCancelEvents("running").count == 1)
  }

  // Ports TimeoutObserverTests.swift test__timeout_observer_where_procedure_is_already_finished.
  // Rule: TimeoutObserver.swift:56-58, 76.
  @Test func aTimeoutDoesNothingOnceFinished() throws {
    let rt = try makeRuntime(operations: [(spec("a", work: 1, timeout: 3), "q")])
    rt.run()
    #expect(rt.isCancelled("a") == false)
    #expect(rt.pkCancelEvents("a").isEmpty)
  }

  // MARK: - (h) Observers: didCancel, willFinish, didFinish

  // Ports CancellationTests.swift test__procedure_did_cancel_called_after_cancelled and
  // test__procedured_cancelled_before_running_is_not_set_to_finished_until_started.
  // Rule: Procedure.swift:1077-1089 (didCancel), 1261-1265 (willFinish), 1282-1305 (finished, then
  // didFinish).
  @Test func observersFireDidCancelThenWillFinishThenDidFinish() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "serial", maxConcurrent: 1)],
      operations: [(spec("running", work: 2), "serial"), (spec("waiting"), "serial")])
    rt.schedule(.cancel(operation: "running"), at: 0.5)
    rt.schedule(.cancel(operation: "waiting"), at: 0.5)
    rt.run()
    for name in ["running", "waiting"] {
      let kinds = rt.events.map(\.kind).filter { $0.operation == name }
      let cancelled = kinds.firstIndex { if case .cancelled = $0 { true } else { false } }
      let willFinish = kinds.firstIndex {
        $0 == .willFinish(operation: name, errors: [], cancelled: true)
      }
      let didFinish = kinds.firstIndex {
        $0 == .didFinish(operation: name, errors: [], cancelled: true)
      }
      #expect(cancelled != nil && willFinish != nil && didFinish != nil)
      if let c = cancelled, let w = willFinish, let d = didFinish { #expect(c < w && w < d) }
    }
    // Cancelled before it started: it finishes only once its queue starts it.
    #expect(rt.pkFinished("waiting") == 0.75)
    #expect(rt.pkStarted("waiting") == nil)
  }

  // MARK: - (h) Groups cancelled early, suspension and exclusivity, barriers and lock requests

  // Ports GroupTests.swift test__group_execute_is_called_when_cancelled_before_running: the group is
  // cancelled before it starts, still executes, adds its children already cancelled (none of them
  // runs) and finishes after them. Rule G8: Group.swift:111 (automatic finishing disabled),
  // Procedure.swift:672, Group.swift:161-174, 382-385.
  @Test func aGroupCancelledBeforeItStartsStillExecutesAndFinishesAfterItsChildren() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([spec("g", children: ["c1", "c2"]), spec("c1"), spec("c2")])
    rt.schedule(.cancel(operation: "g"), at: 0)
    try rt.enqueue("g", on: "q", at: 0.5)
    rt.run()
    #expect(rt.isCancelled("g"))
    #expect(rt.states(of: "g").contains(.executing))
    #expect(rt.states(of: "g").last == .finished)
    for c in ["c1", "c2"] {
      #expect(rt.isCancelled(c))
      #expect(rt.pkStarted(c) == nil)
      #expect(rt.states(of: c).last == .finished)
    }
    let finished = rt.finishOrder
    #expect(finished.last == "g")
    #expect(Set(finished.dropLast()) == ["c1", "c2"])
    #expect(rt.pkFinished("g") == 0.5)
  }

  // X10. A lock granted while the requester's queue is suspended is given back at once and asked for
  // again on resume, so a later requester on another queue takes it first.
  // Rule: ProcedureQueue.swift:460-468 (granted while suspended), 259-263 (re-requested on resume).
  @Test func aLockGrantedWhileTheQueueIsSuspendedGoesToALaterRequester() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q"), QueueSpec(name: "other")],
      operations: [
        (spec("H", work: 2, exclusivity: ["x"]), "other"), (spec("A", exclusivity: ["x"]), "q"),
        (spec("B", exclusivity: ["x"]), "other"),
      ], enqueue: false)
    try rt.enqueue("H", on: "other")
    try rt.enqueue("A", on: "q", at: 0.1)
    rt.schedule(.suspend(queue: "q"), at: 0.5)
    try rt.enqueue("B", on: "other", at: 1)
    rt.schedule(.resume(queue: "q"), at: 2.5)
    rt.run()
    #expect(rt.pkStarted("B") == 2)
    #expect(rt.pkStarted("A") == 3)
  }

  // X10. Suspending a queue gives back the locks of its operations that hold one but have not
  // started (unclaimed tickets); once the queue starts such an operation it asks again, holding its
  // slot, and executes when it gets the lock. Rule: ProcedureQueue.swift:274-281, 488-520;
  // Procedure.swift:692-715.
  @Test func suspendingAQueueGivesBackAnUnclaimedLock() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1), QueueSpec(name: "other")],
      operations: [
        (spec("blocker"), "q"), (spec("A", exclusivity: ["x"]), "q"),
        (spec("B", exclusivity: ["x"]), "other"),
      ], enqueue: false)
    try rt.enqueue("blocker", on: "q")
    try rt.enqueue("A", on: "q")
    rt.schedule(.suspend(queue: "q"), at: 0.5)
    try rt.enqueue("B", on: "other", at: 0.75)
    rt.schedule(.resume(queue: "q"), at: 1.25)
    rt.run()
    #expect(rt.pkEntered("A", .ready) == 0)
    #expect(
      rt.pkTime { $0 == .exclusivityReleased(operation: "A", category: "x") } == 0.5)
    #expect(rt.pkStarted("B") == 0.75)
    #expect(rt.pkStarted("A") == 1.75)
    // A waits with its slot, but B executes and finishes: no deadlock.
    #expect(
      !rt.events.contains {
        if case .warning("slotDeadlock", _, _) = $0.kind { true } else { false }
      })
  }

  // X10. The rules above can deadlock, in ProcedureKit as here: locks given back on suspension go to
  // a request kept for the resume; the queue then starts the earlier operations, which hold its
  // slots while they ask again for locks the later one holds, and the later one waits for a slot.
  // The projection counts those slots and says so; raising the limit unblocks it.
  // Rule: ProcedureQueue.swift:259-281, 460-468, 488-512.
  @Test func givenBackLocksCanDeadlockAFullQueueAndALimitRaiseUnblocksIt() throws {
    func run(raiseAt: Double?, cancelAt: Double? = nil) throws -> VirtualRuntime {
      let rt = try makeRuntime(
        queues: [QueueSpec(name: "q", maxConcurrent: 0)],
        operations: [
          (spec("A", work: 0, exclusivity: ["x"]), "q"),
          (spec("B", work: 0, exclusivity: ["y"]), "q"),
          (spec("C", work: 0, exclusivity: ["x", "y"]), "q"),
        ])
      rt.schedule(.suspend(queue: "q"), at: 0)
      rt.schedule(.resume(queue: "q"), at: 1)
      rt.schedule(.setMaxConcurrent(queue: "q", value: 2), at: 1)
      if let t = raiseAt { rt.schedule(.setMaxConcurrent(queue: "q", value: 3), at: t) }
      if let t = cancelAt { rt.schedule(.cancel(operation: "A"), at: t) }
      rt.run()
      return rt
    }
    let stuck = try run(raiseAt: nil)
    #expect(stuck.pkStarted("A") == nil && stuck.pkStarted("C") == nil)
    let p = stuck.projection
    let q = try #require(p.queue(named: "q"))
    #expect(q.executing == 0 && q.reclaiming == 2 && q.slotsTaken == 2 && q.isAtLimit)
    #expect(p.operation(named: "A")?.reclaiming == true)
    #expect(p.members(of: "q").filter { $0.state == .ready && !$0.reclaiming }.map(\.name) == ["C"])
    #expect(p.whyWaiting("C")?.contains("2 slots held by A, B") == true)
    let reasons = Dictionary(
      uniqueKeysWithValues: p.stuckOperations().map { ($0.operation, $0.reason) })
    #expect(reasons["C"] == .slotsHeldForLocks("q"))
    #expect(reasons["A"] == .waitsFor("C"))
    #expect(p.stuckSummary()?.contains("3 deadlocked on q") == true)
    #expect(p.stuckSummary()?.contains("+ raises the limit") == true)
    // The stream shows C taking both locks while A and B, started, wait for them.
    #expect(
      stuck.pkTime { $0 == .exclusivityWaiting(operation: "A", category: "x", holder: "C") } == 1)

    // The slotDeadlock lint says so as it forms, and what it teaches holds: the raise starts C.
    func deadlockWarnings(_ rt: VirtualRuntime) -> [(Double, String, String)] {
      rt.events.compactMap {
        if case .warning("slotDeadlock", let subject, let message) = $0.kind {
          ($0.time, subject, message)
        } else {
          nil
        }
      }
    }
    let warned = deadlockWarnings(stuck)
    #expect(warned.count == 1)
    #expect(warned.first?.0 == 1 && warned.first?.1 == "q")
    #expect(warned.first?.2.hasPrefix("q's 2 slots are held by A, B: started") == true)
    #expect(warned.first?.2.contains("and C, holding them, waits for a slot.") == true)
    #expect(
      warned.first?.2.hasSuffix("Raising the queue's limit lets the ready one start.") == true)

    // Cancelled while it waits, a started one keeps asking and finishes once it has the lock.
    let cancelled = try run(raiseAt: nil, cancelAt: 1.5)
    #expect(cancelled.projection.whyWaiting("A")?.contains("held by C") == true)
    #expect(cancelled.projection.queue(named: "q")?.reclaiming == 2)
    let cancelledThenRaised = try run(raiseAt: 2, cancelAt: 1.5)
    #expect(cancelledThenRaised.pkFinished("A") == 2 && cancelledThenRaised.pkStarted("A") == nil)

    let raised = try run(raiseAt: 2)
    #expect(deadlockWarnings(raised).map(\.0) == [1])
    #expect(raised.pkStarted("C") == 2)
    #expect(raised.pkFinished("A") == 2 && raised.pkFinished("B") == 2)
    #expect(raised.projection.queue(named: "q")?.reclaiming == 0)
  }

  // X10. Conditions that pass while the queue is suspended: the lock request waits for the resume.
  // Rule: ProcedureQueue.swift:432-447 (requestLock on a suspended queue), 259-263.
  @Test func aLockRequestOnASuspendedQueueWaitsForTheResume() throws {
    let slow = ConditionSpec(
      name: "slow", check: .scripted(result: .satisfied, error: nil), evaluate: 1)
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q"), QueueSpec(name: "other")],
      operations: [
        (spec("A", conditions: [slow], exclusivity: ["x"]), "q"),
        (spec("B", exclusivity: ["x"]), "other"),
      ], enqueue: false)
    try rt.enqueue("A", on: "q")
    rt.schedule(.suspend(queue: "q"), at: 0.5)
    try rt.enqueue("B", on: "other", at: 1.5)
    rt.schedule(.resume(queue: "q"), at: 2)
    rt.run()
    #expect(rt.pkStarted("B") == 1.5)
    #expect(rt.pkStarted("A") == 2.5)
  }

  // Barriers and lock requests. Foundation wires an operation added after a barrier to it with its
  // internal `_addDependency` (SCF Operation.swift:1216-1221), not the overridable `addDependency` that
  // ProcedureKit copies to the condition evaluator (Procedure.swift:585-588, 1695-1735): the
  // operation evaluates its conditions and takes its lock at once, and starts only after the barrier.
  @Test func aBarrierDelaysTheStartButNotTheLockRequest() throws {
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q"), QueueSpec(name: "other")],
      operations: [
        (spec("W", work: 2), "q"),
        (OperationSpec(name: "bar", barrier: true, work: WorkScript(duration: 1)), "q"),
        (spec("A", exclusivity: ["x"]), "q"), (spec("B", exclusivity: ["x"]), "other"),
      ], enqueue: false)
    try rt.enqueue("W", on: "q")
    try rt.enqueue("bar", on: "q")
    try rt.enqueue("A", on: "q")
    try rt.enqueue("B", on: "other", at: 0.5)
    rt.run()
    #expect(rt.pkEntered("A", .evaluatingConditions) == 0)
    #expect(rt.pkTime { $0 == .exclusivityAcquired(operation: "A", category: "x") } == 0)
    #expect(rt.pkEntered("A", .ready) == 3)
    #expect(rt.pkStarted("A") == 3)
    #expect(rt.pkStarted("B") == 4)
  }
}
