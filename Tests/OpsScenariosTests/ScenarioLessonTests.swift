import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

/// Runs a built-in scenario to the end (or `until`) on the virtual clock.
func play(_ name: String, until: Double? = nil) throws -> VirtualRuntime {
  let scenario = try #require(Catalog.named(name), "built-in scenario \(name) is missing")
  let rt = scenario.makeRuntime()
  rt.run(until: until)
  return rt
}

extension VirtualRuntime {
  func started(_ op: String) -> Double? {
    events.first { $0.kind == .didStart(operation: op) }?.time
  }
  func finished(_ op: String) -> Double? {
    events.first { if case .didFinish(op, _, _) = $0.kind { true } else { false } }?.time
  }
  var starts: [String] {
    events.compactMap { if case .didStart(let o) = $0.kind { o } else { nil } }
  }
  func transitions(_ op: String) -> [OperationState] {
    events.compactMap { if case .state(op, _, let to, _) = $0.kind { to } else { nil } }
  }
  func transitionTime(_ op: String, from: OperationState, to: OperationState) -> Double? {
    events.first {
      if case .state(op, from, to, _) = $0.kind { true } else { false }
    }?.time
  }
  /// The largest number of operations of `queue` executing at once.
  func peakConcurrency(_ queue: String, scenario: Scenario) -> Int {
    let members = Set(scenario.operations.filter { $0.queue == queue }.map(\.spec.name))
    var now = 0
    var peak = 0
    for e in events {
      if case .state(let o, _, .executing, _) = e.kind, members.contains(o) { now += 1 }
      if case .state(let o, .executing, _, _) = e.kind, members.contains(o) { now -= 1 }
      peak = max(peak, now)
    }
    return peak
  }
}

func warnings(_ rt: VirtualRuntime) -> Set<String> {
  Set(rt.projection.warnings.map { "\($0.kind):\($0.subject)" })
}

@Suite struct ScenarioLessonTests {
  @Test func everyBuiltInScenarioLoadsAndHasALesson() throws {
    let names = Catalog.all.map(\.id)
    for expected in [
      "tour", "lifecycle", "serial-vs-concurrent", "priorities", "dependencies", "cancellation",
      "async-pitfalls",
      "conditions", "mutual-exclusivity", "groups-and-produced", "timeout", "deadlock", "stress",
    ] {
      #expect(names.contains(expected))
    }
    for s in Catalog.all {
      #expect(!s.title.isEmpty && s.notes.count > 200, "\(s.id) needs a title and notes that teach")
    }
  }

  @Test(arguments: Catalog.all.map(\.id))
  func playsForTwentyToSixtySecondsAtItsSpeed(name: String) throws {
    let s = try #require(Catalog.named(name))
    let rt = s.makeRuntime()
    rt.run(until: 600)
    let lastEvent = rt.events.last?.time ?? 0
    let seconds = lastEvent / s.speed
    #expect(seconds >= 20 && seconds <= 60, "\(name) plays for \(seconds)s")
  }

  @Test func lifecycleShowsEveryState() throws {
    let rt = try play("lifecycle")
    #expect(
      rt.transitions("report") == [
        .pending, .evaluatingConditions, .ready, .executing, .finishing, .finished,
      ])
    #expect(
      rt.transitionTime("report", from: .pending, to: .evaluatingConditions) == 4)
    #expect(rt.started("report") == 10)
    #expect(rt.finished("report") == 16)
  }

  @Test func serialVersusConcurrent() throws {
    let s = try #require(Catalog.named("serial-vs-concurrent"))
    let rt = try play("serial-vs-concurrent")
    #expect(rt.peakConcurrency("concurrent", scenario: s) == 4)
    #expect(rt.finished("c6") == 6)
    #expect(["s1", "s2", "s3"].map { rt.started($0) } == [0, 3, 6])
    // Widening to 3 at 8s starts two waiting operations at once.
    #expect(rt.started("s4") == 8 && rt.started("s5") == 8)
    #expect(rt.peakConcurrency("serial", scenario: s) == 3)
  }

  @Test func prioritiesOrderTheReleasedQueue() throws {
    let rt = try play("priorities")
    let serial = rt.starts.filter {
      ["backup", "sync", "render", "log", "fetch", "index"].contains($0)
    }
    #expect(serial == ["render", "fetch", "sync", "index", "log", "backup"])
    let pool = rt.starts.filter { ["archive", "cleanup", "prefetch", "tap"].contains($0) }
    #expect(pool == ["tap", "prefetch", "cleanup", "archive"])
    #expect(rt.started("render") == 3)
  }

  @Test func dependenciesCrossQueues() throws {
    let rt = try play("dependencies")
    #expect(rt.started("decode") == rt.finished("download"))
    #expect(rt.started("upload")! >= max(rt.finished("resize")!, rt.finished("thumbnail")!))
    #expect(rt.started("manifest") == 0)
    #expect(rt.started("cleanup") != nil)
    #expect(warnings(rt) == ["ranAfterFailedDependency:cleanup"])
  }

  @Test func cancellationInEveryMoment() throws {
    let rt = try play("cancellation")
    #expect(rt.started("queued") == nil && rt.finished("queued") == 6)
    #expect(rt.started("afterQueued") != nil)
    #expect(rt.finished("polite") == 2.5)
    #expect(rt.finished("stubborn") == 8)
    #expect(rt.finished("abrupt") == 3)
    #expect(rt.events.contains { $0.kind == .cancelTooLate(operation: "done") && $0.time == 4 })
    #expect(
      warnings(rt) == [
        "ignoresCancellation:stubborn", "cancelledTooLate:done",
        "ranAfterFailedDependency:afterQueued",
      ])
  }

  @Test func asyncPitfalls() throws {
    let rt = try play("async-pitfalls")
    #expect(rt.state(of: "fetchToken") == .executing)
    #expect(rt.state(of: "useToken") == .pending)
    #expect(rt.finished("listen") == 8.5)
    #expect(rt.started("early") == nil && rt.finished("early") == 4)
    #expect(warnings(rt).contains("neverFinishes:fetchToken"))
  }

  @Test func conditionsSatisfiedFailedAndProduced() throws {
    let rt = try play("conditions")
    #expect(
      rt.transitionTime("showFeed", from: .evaluatingConditions, to: .ready) == 2)
    #expect(rt.started("postComment") == nil)
    #expect(
      rt.events.contains {
        $0.kind
          == .cancelled(
            operation: "postComment", errors: ["user is not logged in"], cause: .condition)
      })
    let loginDone = try #require(rt.finished("login"))
    let evaluated = try #require(
      rt.events.first {
        $0.kind == .conditionStarted(operation: "syncSettings", condition: "loggedIn")
      })
    #expect(evaluated.time == loginDone)
    #expect(rt.started("tidyUp") == nil && rt.isCancelled("tidyUp"))
    #expect(warnings(rt) == ["conditionFailed:postComment", "conditionFailed:tidyUp"])
  }

  @Test func mutualExclusivityNeverOverlaps() throws {
    let rt = try play("mutual-exclusivity")
    let alerts = ["errorAlert", "updateAlert", "ratingAlert"]
    let spans = alerts.map { (rt.started($0)!, rt.finished($0)!) }.sorted { $0.0 < $1.0 }
    for (a, b) in zip(spans, spans.dropFirst()) { #expect(a.1 <= b.0) }
    #expect(
      rt.events.contains {
        $0.kind
          == .exclusivityWaiting(operation: "updateAlert", category: "Alert", holder: "errorAlert")
      })
    #expect(rt.started("backgroundSync") == 0)
    #expect(rt.started("saveSettings") == rt.finished("saveDraft"))
    #expect(warnings(rt).isEmpty)
  }

  @Test func groupsAndProducedOperations() throws {
    let rt = try play("groups-and-produced")
    #expect(rt.finished("importAlbum")! >= rt.finished("fetchExtra")!)
    #expect(rt.errors(of: "importAlbum") == ["fetchTags: tag service unavailable"])
    #expect(rt.started("notify")! >= rt.finished("importAlbum")!)
    #expect(
      rt.events.contains {
        $0.kind == .didProduce(operation: "scan", produced: "thumb2") && $0.time == 2
      })
    #expect(
      rt.events.contains { $0.kind == .cancelled(operation: "exportA", errors: [], cause: .parent) }
    )
    #expect(rt.state(of: "exportAll") == .finished && rt.isCancelled("exportAll"))
  }

  @Test func timeoutsCancelSlowWork() throws {
    let rt = try play("timeout")
    #expect(rt.isCancelled("quick") == false)
    #expect(
      rt.events.contains {
        $0.kind == .cancelled(operation: "slow", errors: ["timed out after 3s"], cause: .timeout)
          && $0.time == 3
      })
    #expect(rt.finished("slow") == 4)
    #expect(rt.finished("deaf") == 10)
    #expect(warnings(rt) == ["ignoresCancellation:deaf"])
  }

  /// The warning says what is known when it is raised: a work that checks rarely is still
  /// executing, not "never checks"; a cancelled group executes until its children finish, and the
  /// child that ignores the cancel is the one flagged.
  @Test func ignoresCancellationSaysOnlyWhatIsKnown() throws {
    let rt = try parseScenario(
      """
      queues:
        - {name: q}
      operations:
        - {name: slow, work: 10, checkEvery: 3}
        - {name: g, children: [c, d]}
        - {name: c, work: 5, cancellation: ignored}
        - {name: d, work: 1}
      actions: [{at: 1, cancel: slow}, {at: 1.5, cancel: g}]
      """
    ).makeRuntime(recording: true)
    rt.run(until: 20)
    #expect(warnings(rt) == ["ignoresCancellation:slow", "ignoresCancellation:c"])
    let slow = try #require(rt.projection.warnings.first { $0.subject == "slow" })
    #expect(slow.time == 2)
    #expect(
      slow.message.contains("slow was cancelled at 1.000s and is still executing 1.000s later"))
    #expect(!slow.message.contains("never"))
    // It noticed at its next check.
    #expect(
      rt.events.contains {
        guard case .state("slow", .executing, .finishing, .noticedCancel) = $0.kind else {
          return false
        }
        return $0.time == 3
      })
  }

  @Test func deadlockIsReportedAndBrokenByCancel() throws {
    let before = try play("deadlock", until: 11)
    #expect(
      before.events.contains {
        if case .cycleDetected(let ops) = $0.kind {
          Set(ops) == ["parse", "validate", "normalize"]
        } else {
          false
        }
      })
    #expect(before.state(of: "report") == .pending)
    let rt = try play("deadlock")
    #expect(rt.started("normalize") == nil && rt.finished("normalize") == 12)
    #expect(rt.starts.suffix(3) == ["validate", "parse", "report"])
    #expect(warnings(rt).contains("dependencyCycle:parse"))
  }

  @Test func stressRunsThousandsOfOperationsToTheEnd() throws {
    let s = try #require(Catalog.named("stress"))
    #expect(s.operations.count >= 1000)
    let rt = s.makeRuntime()
    rt.run()
    #expect(s.operations.allSatisfy { rt.state(of: $0.spec.name) == .finished })
    #expect(rt.peakConcurrency("store", scenario: s) <= 3)
  }

  @Test func tourShowsABitOfEverything() throws {
    let rt = try play("tour")
    let types = Set(rt.events.map(\.kind.type))
    for t in [
      "queueSuspended", "queueResumed", "queueMaxConcurrent", "conditionResult",
      "exclusivityWaiting", "cancelled", "didProduce",
    ] where t != "didProduce" {
      #expect(types.contains(t), "tour has no \(t)")
    }
    #expect(rt.started("decode") == rt.finished("download"))
    #expect(rt.started("purge") != nil)
  }

  @Test(arguments: ["lifecycle", "serial-vs-concurrent", "mutual-exclusivity"])
  func healthyScenariosRaiseNoWarning(name: String) throws {
    #expect(warnings(try play(name)).isEmpty)
  }
}
