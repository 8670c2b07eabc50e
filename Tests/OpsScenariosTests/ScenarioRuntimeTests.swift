import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// `Scenario.makeRuntime`: what is set up at time 0 and what happens later on the virtual clock.
@Suite struct ScenarioRuntimeTests {
  /// A run whose projection keeps only what the lints read publishes the same events, warnings
  /// included, as one keeping everything (a trace runs that way).
  @Test func theLintsOnlyProjectionPublishesTheSameEvents() {
    var warnings = 0
    for scenario in Catalog.all {
      let full = scenario.makeRuntime()
      let lean = scenario.makeRuntime(fullProjection: false)
      full.run(until: 1_000)
      lean.run(until: 1_000)
      #expect(lean.events == full.events, "\(scenario.id)")
      warnings += full.events.filter { $0.kind.type == "warning" }.count
    }
    #expect(warnings > 0, "no built-in scenario raised a warning: nothing was compared for them")
  }

  /// (time, operation, queue) of each operationAdded event.
  func added(_ rt: VirtualRuntime) -> [String] {
    rt.events.compactMap {
      guard case .operationAdded(let op, let q, _, _, _, _, _, _, _) = $0.kind else { return nil }
      return "\(formatSeconds($0.time)) \(op)@\(q)"
    }
  }

  @Test func queuesThenOperationsAddedAtTheirTimes() throws {
    let s = try parseScenario(
      """
      queues: [{name: main, maxConcurrent: 2}, {name: side, suspended: true}]
      operations:
        - {name: a, work: 2}
        - {name: late, work: 1, addedAt: 1.5}
        - {name: b, queue: side}
        - {name: later, addedAt: 4}
      """)
    let rt = s.makeRuntime()
    // Before the clock moves: both queues, then the operations added at 0, in file order.
    #expect(
      rt.timeline.filter { !$0.contains(" state ") } == [
        "0 queueAdded main", "0 queueAdded side", "0 operationAdded a", "0 didStart a",
        "0 operationAdded b",
      ])
    rt.run()
    #expect(added(rt) == ["0 a@main", "0 b@side", "1.5 late@main", "4 later@main"])
    #expect(rt.state(of: "late") == .finished)
    #expect(rt.firstTime { if case .didFinish("later", _, _) = $0 { true } else { false } } == 5)
    // `b` waits on its suspended queue forever.
    #expect(rt.state(of: "b") == .ready)
  }

  @Test func actionsBecomeCommandEventsFromTheActionSource() throws {
    let s = try parseScenario(
      """
      queues: [{name: main, maxConcurrent: 1}]
      operations:
        - {name: a, work: 3}
        - {name: b, work: 1}
        - {name: c, work: 1}
      actions:
        - {at: 1, suspend: main}
        - {at: 2, maxConcurrent: {queue: main, value: 2}}
        - {at: 3.5, cancel: c}
        - {at: 3.5, resume: main}
        - {at: 10, cancelAll: main}
      """)
    let rt = s.makeRuntime()
    rt.run()
    let commands = rt.events.compactMap { e -> String? in
      guard case .command(let name, let target, let value, let source) = e.kind else { return nil }
      return "\(formatSeconds(e.time)) \(name) \(target) \(value ?? "-") \(source.rawValue)"
    }
    // cancelAll at 10 finds nothing left to cancel: rejected, so no event.
    #expect(
      commands == [
        "1 suspend main - action", "2 maxConcurrent main 2 action", "3.5 cancel c - action",
        "3.5 resume main - action",
      ])
    // Each command event comes right before its effect.
    let i = try #require(rt.events.firstIndex { $0.kind.type == "command" })
    #expect(rt.events[i + 1].kind == .queueSuspended(queue: "main"))
    #expect(
      rt.events.contains { $0.kind == .cancelled(operation: "c", errors: [], cause: .action) })
    // Same-time actions run in file order: c is cancelled before the queue resumes, so it never starts.
    #expect(rt.startOrderNames == ["a", "b"])
    #expect(rt.state(of: "c") == .finished)
  }

  @Test func producedOperationsAndChildrenWaitForWhatAddsThem() throws {
    let s = try parseScenario(
      """
      queues: [{name: main}]
      operations:
        - {name: g, children: [c1, c2]}
        - {name: c1, work: 1}
        - {name: c2, work: 2}
        - name: scan
          work: 2
          produces: [{at: 0.5, operation: thumb}]
        - {name: thumb, produced: true, work: 1}
        - name: upload
          addedAt: 1
          conditions: [{name: loggedIn, dependency: login, evaluate: 0.5}]
        - {name: login, produced: true, work: 1}
      """)
    let rt = s.makeRuntime()
    // At time 0, before anything runs, only g and scan are on the queue; g has started its children.
    #expect(added(rt) == ["0 g@main", "0 c1@g.children", "0 c2@g.children", "0 scan@main"])
    rt.run()
    #expect(
      added(rt) == [
        "0 g@main", "0 c1@g.children", "0 c2@g.children", "0 scan@main", "0.5 thumb@main",
        "1 upload@main", "1 login@main",
      ])
    #expect(rt.events.contains { $0.kind == .didProduce(operation: "scan", produced: "thumb") })
    // The group finishes with its last child; the condition is evaluated after login.
    #expect(rt.firstTime { $0 == .didFinish(operation: "g", errors: [], cancelled: false) } == 2)
    #expect(
      rt.firstTime { $0 == .conditionStarted(operation: "upload", condition: "loggedIn") } == 2)
    #expect(rt.state(of: "upload") == .finished)
  }

  @Test func implicitDefaultQueue() throws {
    let rt = try parseScenario("operations: [{name: a}]").makeRuntime()
    #expect(
      rt.events.first?.kind
        == .queueAdded(queue: "default", maxConcurrent: nil, suspended: false, qos: .default))
    rt.run()
    #expect(rt.state(of: "a") == .finished)
    #expect(rt.now == 1)
  }

  @Test func notRecordingKeepsNoEventsButRunsTheSame() throws {
    let s = try parseScenario("operations: [{name: a, work: 2}, {name: b, addedAt: 1}]")
    let rt = s.makeRuntime(recording: false)
    // Setting up published events already (queue and first operation added); none were kept.
    let published = rt.eventCount
    #expect(published > 0)
    var seen = 0
    rt.subscribe { _ in seen += 1 }
    rt.run()
    #expect(rt.events.isEmpty)
    #expect(rt.state(of: "a") == .finished && rt.state(of: "b") == .finished)
    #expect(seen == rt.eventCount - published)
  }

  @Test func sameScenarioSameEvents() throws {
    let s = try parseScenario(ScenarioFormatTests.everyKey)
    let first = s.makeRuntime()
    first.run(until: 60)
    let second = s.makeRuntime()
    second.run(until: 60)
    #expect(first.events == second.events)
    #expect(first.events.count > 50)
  }

  @Test func everyBuiltInRuns() throws {
    for scenario in Catalog.all {
      let rt = scenario.makeRuntime(recording: false)
      rt.run(until: 600)
      #expect(rt.eventCount > scenario.queues.count, "\(scenario.id)")
    }
  }
}

extension VirtualRuntime {
  var startOrderNames: [String] {
    events.compactMap { if case .didStart(let o) = $0.kind { o } else { nil } }
  }
}
