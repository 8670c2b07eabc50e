import OpsEngine
import OpsEvents
import Testing

// Rules of docs/SEMANTICS.md that no other suite checked, each against a run of the virtual runtime.
// Each test names its rule (C2, P7, …) and the reference lines that state it.

private func spec(
  _ name: String, work: Double = 1, fails: String? = nil, deps: [String] = [],
  conditions: [ConditionSpec] = [], exclusivity: [String] = [],
  cancellation: CancellationMode = .cooperative, timeout: Double? = nil, children: [String] = []
) -> OperationSpec {
  OperationSpec(
    name: name, dependencies: deps, conditions: conditions, exclusivity: exclusivity,
    cancellation: cancellation, timeout: timeout, children: children,
    work: WorkScript(duration: work, fails: fails))
}

private let noFailedDependencies = ConditionSpec(
  name: "noFailedDependencies", check: .noFailedDependencies, evaluate: 0.5)

extension VirtualRuntime {
  fileprivate func at(_ predicate: (EventKind) -> Bool) -> Double? {
    events.first { predicate($0.kind) }?.time
  }
  fileprivate func started(_ op: String) -> Double? {
    at { if case .didStart(op) = $0 { true } else { false } }
  }
  fileprivate func finished(_ op: String) -> Double? {
    at { if case .didFinish(op, _, _) = $0 { true } else { false } }
  }
}

@Suite struct SemanticsRuleTests {

  // C2. PK Procedure.swift:578-579: a procedure already cancelled when it is added gets no
  // EvaluateConditions operation, so neither its conditions nor its lock request ever happen.
  @Test func anOperationCancelledBeforeItIsAddedNeverEvaluatesItsConditions() throws {
    let op = spec(
      "op", conditions: [ConditionSpec(name: "slow", evaluate: 2)], exclusivity: ["x"])
    let rt = try makeRuntime(operations: [(op, "q")], enqueue: false)
    #expect(rt.perform(.cancel(operation: "op")).isApplied)
    try rt.enqueue("op", on: "q")
    rt.run()
    let evaluated = rt.events.contains {
      switch $0.kind {
      case .conditionStarted("op", _), .conditionWaiting("op", _, _),
        .conditionResult("op", _, _, _):
        true
      default: false
      }
    }
    #expect(evaluated == false)
    #expect(rt.states(of: "op").contains(.evaluatingConditions) == false)
    // Cancelled before it started: ready at once, then started by its queue and finished (K7).
    #expect(rt.states(of: "op") == [.pending, .ready, .finishing, .finished])
    #expect(rt.started("op") == nil)
    #expect(rt.finished("op") == 0)
  }

  // P7. PK Procedure.swift:600-604, 1719-1721: a produced dependency is a dependency of the
  // condition's evaluation; the procedure's `dependencies` hold only what was added directly.
  @Test func aProducedDependencyIsNotAmongTheOperationsDependencies() throws {
    let op = spec(
      "op", deps: ["setup"], conditions: [ConditionSpec(name: "loggedIn", dependency: "login")])
    let rt = try makeRuntime(
      operations: [(spec("setup"), "q"), (op, "q"), (spec("login"), "q")], enqueue: false)
    try rt.enqueue("setup", on: "q")
    try rt.enqueue("op", on: "q")
    rt.run()
    // The produced dependency did run before the evaluation (P1), so the link existed.
    #expect(rt.startOrder == ["setup", "login", "op"])
    #expect(rt.projection.operation(named: "op")?.dependencies == ["setup"])
    let added = rt.events.compactMap {
      if case .operationAdded("op", _, _, _, _, let deps, _, _, _) = $0.kind { deps } else { nil }
    }
    #expect(added == [["setup"]])
    let linkedToLogin = rt.events.contains {
      if case .dependencyAdded("op", "login") = $0.kind { true } else { false }
    }
    #expect(linkedToLogin == false)
  }

  // N9. PK NoFailedDependenciesCondition.swift:42 reads `procedure.dependencies`, the direct ones
  // (Procedure.swift:1719-1721): a failure two links away does not fail the condition.
  @Test func noFailedDependenciesInspectsOnlyDirectDependencies() throws {
    let rt = try makeRuntime(operations: [
      (spec("root", fails: "disk full"), "q"), (spec("middle", deps: ["root"]), "q"),
      (spec("op", deps: ["middle"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.errors(of: "root") == ["disk full"])
    // Foundation runs a dependent of a failed operation (F10), so `middle` succeeds.
    #expect(rt.errors(of: "middle").isEmpty && rt.isCancelled("middle") == false)
    #expect(Self.noFailedDependenciesWasSatisfied(for: "op", in: rt))
    #expect(rt.isCancelled("op") == false)
    #expect(rt.startOrder == ["root", "middle", "op"])
  }

  // N9 with a barrier: Foundation links it with `_addDependency` (SCF 1216-1221) and hides it from
  // `dependencies` (SCF `dependencies` filters `_BarrierOperation`), so a cancelled barrier before
  // the operation does not fail its NoFailedDependenciesCondition.
  @Test func noFailedDependenciesIgnoresACancelledBarrierBeforeTheOperation() throws {
    let barrier = OperationSpec(name: "bar", barrier: true, work: WorkScript(duration: 1))
    let op = spec(
      "op",
      conditions: [
        ConditionSpec(name: "noFailedDependencies", check: .noFailedDependencies, evaluate: 1)
      ])
    let rt = try makeRuntime(operations: [(spec("a", work: 2), "q"), (barrier, "q"), (op, "q")])
    rt.schedule(.cancel(operation: "bar"), at: 0.5)
    rt.run()
    #expect(rt.isCancelled("bar"))
    #expect(Self.noFailedDependenciesWasSatisfied(for: "op", in: rt))
    #expect(rt.isCancelled("op") == false)
    #expect(rt.started("op") != nil)
  }

  // X1. PK MutualExclusion.swift:14-27, Condition.swift:1305-1311: a category is an always-satisfied
  // condition, and an operation's categories are the union over its conditions. opsview declares them
  // apart (`exclusivity`) but must treat them so: listed with the conditions, held all together.
  @Test func exclusivityCategoriesAreHeldTogetherAlongsideTheConditions() throws {
    let both = spec(
      "both", work: 2, conditions: [ConditionSpec(name: "reachable")], exclusivity: ["a", "b"])
    // The others ask after `both` took its locks: an exclusivity-only operation asks at once,
    // before a condition evaluated on the clock has passed (X2).
    let rt = try makeRuntime(
      operations: [
        (both, "q"), (spec("onlyA", exclusivity: ["a"]), "q"),
        (spec("onlyB", exclusivity: ["b"]), "q"),
      ], enqueue: false)
    try rt.enqueue("both", on: "q")
    try rt.enqueue("onlyA", on: "q", at: 0.5)
    try rt.enqueue("onlyB", on: "q", at: 0.5)
    rt.run()
    let listed = rt.projection.operation(named: "both")?.conditions.map(\.displayName)
    #expect(listed == ["reachable", "a lock", "b lock"])
    #expect(rt.started("both") == 0)
    #expect(rt.started("onlyA") == 2)
    #expect(rt.started("onlyB") == 2)
  }

  // X1: the union is a set, so a category named twice is one category, not a lock the operation
  // waits for behind itself. Scenario files reject a repeated category; the engine's API takes it
  // as one.
  @Test func aCategoryNamedTwiceIsOneCategory() throws {
    let rt = try makeRuntime(operations: [(spec("op", exclusivity: ["a", "a"]), "q")])
    rt.run()
    #expect(rt.started("op") == 0)
    #expect(rt.finished("op") == 1)
  }

  // K2. PK Procedure.swift:391-419: a procedure holds one error. Every path that could give it a
  // second one keeps a single message.
  @Test func anOperationHoldsOneErrorMessage() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations([
      // Timed out, then its work (which ignores cancellation) fails as well (K4).
      spec("timed", work: 2, fails: "boom", cancellation: .ignored, timeout: 1),
      // Two failed dependencies give one condition error.
      spec("d1", fails: "e1"), spec("d2", fails: "e2"),
      spec("checked", deps: ["d1", "d2"], conditions: [noFailedDependencies]),
      // Two failing children give the group one error (G6).
      spec("g", children: ["c1", "c2"]), spec("c1", fails: "c1 failed"),
      spec("c2", work: 2, fails: "c2 failed"),
      // Cancelled by a failed condition, then cancelled again with another cause (K5).
      spec(
        "twice",
        conditions: [ConditionSpec(name: "no", check: .scripted(result: .failed, error: "no"))]),
    ])
    for name in ["timed", "d1", "d2", "checked", "g", "twice"] { try rt.enqueue(name, on: "q") }
    rt.schedule(.cancel(operation: "twice"), at: 0)
    rt.run()
    #expect(rt.errors(of: "timed") == ["timed out after 1s"])
    #expect(rt.errors(of: "checked").count == 1)
    #expect(rt.errors(of: "g").count == 1)
    #expect(rt.errors(of: "twice") == ["no"])
    let finishErrors = rt.events.compactMap {
      if case .didFinish(_, let errors, _) = $0.kind { errors.count } else { nil }
    }
    #expect(finishErrors.allSatisfy { $0 <= 1 })
  }

  // T4. PK TimeoutObserver.swift:48-53: a non-positive interval sets no timer, so the operation runs
  // its work to the end. (Several timeouts on one operation cannot be declared: `timeout` is one
  // number; a negative one is rejected as bad input, and scenario files reject zero too.)
  @Test func aZeroTimeoutSetsNoTimer() throws {
    let rt = try makeRuntime(operations: [(spec("op", work: 2, timeout: 0), "q")])
    rt.run()
    #expect(rt.started("op") == 0)
    #expect(rt.isCancelled("op") == false)
    #expect(rt.errors(of: "op").isEmpty)
    #expect(rt.finished("op") == 2)
  }

  // P6 differs on purpose (docs/SEMANTICS.md, Deliberate differences): ProcedureKit runs a produced
  // dependency on the evaluation's private queue; opsview adds it to the operation's queue, where it
  // takes a slot. This pins what the board shows.
  @Test func aProducedDependencyTakesASlotOnTheOperationsQueue() throws {
    let op = spec("op", conditions: [ConditionSpec(name: "loggedIn", dependency: "login")])
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 1)],
      operations: [(spec("busy", work: 3), "q"), (op, "q"), (spec("login"), "q")],
      enqueue: false)
    try rt.enqueue("busy", on: "q")
    try rt.enqueue("op", on: "q")
    rt.run()
    #expect(rt.projection.operation(named: "login")?.queue == "q")
    #expect(rt.started("login") == 3)
    #expect(rt.started("op") == 4)
  }

  // N7 differs on purpose: PK's error is generic (NoFailedDependenciesCondition.swift:51, 53);
  // opsview's message names the dependency, which the board shows. This pins the message.
  @Test func noFailedDependenciesNamesTheDependencyInItsMessage() throws {
    let rt = try makeRuntime(operations: [
      (spec("fetch", fails: "offline"), "q"),
      (spec("parse", deps: ["fetch"], conditions: [noFailedDependencies]), "q"),
    ])
    rt.run()
    #expect(rt.errors(of: "parse") == ["dependency fetch failed"])
  }

  /// Whether `op`'s NoFailedDependenciesCondition ended satisfied in the run.
  static func noFailedDependenciesWasSatisfied(for op: String, in rt: VirtualRuntime) -> Bool {
    rt.events.contains {
      $0.kind
        == .conditionResult(
          operation: op, condition: "noFailedDependencies", result: .satisfied, error: nil)
    }
  }
}
