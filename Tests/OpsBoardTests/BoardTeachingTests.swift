import OpsEngine
import OpsEvents
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

private func keys(_ s: BoardSession, _ inputs: KeyInput...) {
  for i in inputs { _ = s.handle(i) }
}

private func screen(_ s: BoardSession, _ w: Int = 80, _ h: Int = 24, ascii: Bool = false) -> String
{
  s.render(width: w, height: h, ascii: ascii).text
}

/// The model and warnings a fresh fold of the first `count` events gives, for comparison.
private func freshFold(_ events: ArraySlice<Event>, clock: Double? = nil) -> (
  BoardModel, [WarningInfo]
) {
  var model = BoardModel()
  for e in events { model.apply(e) }
  if let t = clock { model.advanceClock(to: t) }
  return (model, model.warnings)
}

private func scenarioSession(_ name: String, paused: Bool = true) -> BoardSession {
  let scenario = Catalog.named(name)!
  return BoardSession(
    title: scenario.title, notes: "", paused: paused,
    makeRuntime: { scenario.makeRuntime() })
}

@Suite("BoardTeachingExplanation: why the selected operation is waiting")
struct BoardTeachingExplanationTests {
  @Test func theSelectedOperationsExplanationIsOnTheBoardAt80x24() {
    let s = photoSession()
    s.advance(by: 2)
    s.select(operation: "rateApp")
    let text = screen(s)
    // Its only condition is exclusivity: it waits for the lock while evaluating its conditions.
    #expect(
      s.model.whyWaiting("rateApp")
        == "evaluating its conditions: waiting for the Alert exclusivity lock held by banner")
    #expect(
      text.contains(
        "why rateApp: evaluating its conditions: waiting for the Alert exclusivity lock\n"
          + "              held by banner"))
    // It follows the selection and comes from the replica, never guessed.
    s.select(operation: "resize")
    #expect(screen(s).contains("why resize: waiting for its dependency decode (pending)"))
    #expect(s.model.whyWaiting("resize") == "waiting for its dependency decode (pending)")
  }

  @Test func theDetailViewExplainsToo() {
    let s = photoSession()
    s.advance(by: 2)
    s.select(operation: "rateApp")
    keys(s, .enter)
    let text = screen(s, 120, 40)
    #expect(text.contains("◐ evaluatingConditions for 2.00s"))
    #expect(text.contains("why  evaluating its conditions: waiting for the Alert exclusivity lock"))
    #expect(text.contains("⊘ Alert lock: waiting, held by banner"))
  }
}

@Suite("BoardTeachingStateMachine: the pending → ready shortcut is for no conditions or cancelled")
struct BoardTeachingStateMachineTests {
  /// The lines of the state machine's pending row on a screen: `○ pending ───┐` when the shortcut
  /// was not taken, `━━━┓` when it was.
  private func pendingRow(_ text: String) -> Substring? {
    text.split(separator: "\n").first { $0.contains(" pending ─") || $0.contains(" pending ━") }
  }

  // ProcedureKit: `MutuallyExclusive` is a condition, so the procedure's conditions are evaluated
  // and the lock is asked for within that evaluation (Procedure.swift:576-596, 1666-1685).
  @Test func anOperationWhoseOnlyConditionIsExclusivityGoesThroughEvaluatingConditions() throws {
    let s = scenarioSession("tour")
    // banner holds the Alert lock from 3s to 6s; rateApp waits for it, then executes until 9s.
    s.advance(by: 5)
    s.select(operation: "rateApp")
    keys(s, .enter)
    var text = screen(s, 120, 40)
    #expect(s.model.operation(named: "rateApp")?.state == .evaluatingConditions)
    #expect(pendingRow(text)?.contains(" pending ─") == true, "\(text)")
    #expect(text.contains("pending → evaluatingConditions"))
    s.advance(by: 2)
    text = screen(s, 120, 40)
    for name in ["banner", "rateApp"] {
      let path = StateMachineDiagram.taken(s.model.operation(named: name))
      #expect(!path.contains([.pending, .ready]), "\(name) took the no-conditions shortcut")
      #expect(path.contains([.pending, .evaluatingConditions]))
      #expect(path.contains([.evaluatingConditions, .ready]))
    }
    // The shortcut stays thin and dim: rateApp's path goes down the trunk.
    #expect(pendingRow(text)?.contains(" pending ─") == true, "\(text)")
  }

  @Test func inEveryBuiltInScenarioOnlyOperationsWithoutConditionsOrCancelledTakeTheShortcut() {
    for name in Catalog.names {
      guard let scenario = Catalog.named(name) else { continue }
      let rt = scenario.makeRuntime()
      rt.run(until: 600)
      var model = BoardModel()
      for e in rt.events { model.apply(e) }
      for op in model.operations where !op.conditions.isEmpty {
        let states = op.history.map(\.state)
        for (i, pair) in zip(states, states.dropFirst()).enumerated()
        where pair == (.pending, .ready) {
          let cause = op.history[i + 1].cause
          let cancelled = if case .cancelled? = cause { true } else { false }
          #expect(cancelled, "\(name): \(op.name) went pending → ready: \(cause?.text ?? "-")")
        }
        if !op.cancelled && op.state > .evaluatingConditions {
          #expect(StateMachineDiagram.taken(op).contains([.pending, .evaluatingConditions]))
        }
      }
    }
  }
}

@Suite("BoardTeachingWarnings: marks, header count and the w view")
struct BoardTeachingWarningsTests {
  @Test func aCycleIsMarkedCountedAndListed() {
    let s = scenarioSession("deadlock")
    s.advance(by: 1)
    #expect(
      s.model.warnings.map(\.kind) == ["dependencyCycle", "dependencyCycle", "dependencyCycle"])
    let text = screen(s)
    let header = text.split(separator: "\n")[0]
    #expect(header.contains("⚠ 3"))
    let rows = text.split(separator: "\n").filter { $0.contains("○ pending") }
    // parse, validate, normalize are marked; report (stuck behind the cycle, not in it) is not.
    for name in ["parse", "validate", "normalize"] {
      #expect(rows.contains { $0.contains(name + " ⚠") }, "\(name) is not marked:\n\(text)")
    }
    #expect(!rows.contains { $0.contains("report ⚠") })
    // ASCII shows `!`.
    #expect(screen(s, ascii: true).contains("parse !"))
    keys(s, .character("w"))
    #expect(s.view == .warnings)
    let list = screen(s, 120, 40)
    #expect(list.contains("Warnings · 3"))
    #expect(list.contains("parse is in a dependency cycle (parse → validate → normalize → parse)"))
    #expect(list.contains("dependencyCycle"))
    keys(s, .escape)
    #expect(s.view == .board)
    keys(s, .enter)
    #expect(screen(s, 120, 40).contains("Warnings (1)"))
  }

  @Test func timeBasedLintsAreCheckedOnTicks() {
    // A suspended queue holding work with nothing else running is flagged after the grace period,
    // although no event happens in the meantime.
    let s = BoardSession(title: "idle", notes: "", paused: false) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q", suspended: true))
      try! rt.addOperation(OperationSpec(name: "a", work: WorkScript(duration: 1)))
      try! rt.enqueue("a", on: "q")
      rt.schedule(.resume(queue: "q"), at: 60)
      return rt
    }
    s.tick(elapsed: 2)
    #expect(s.model.warnings.isEmpty)
    s.tick(elapsed: 4)
    #expect(s.model.warnings.map(\.kind) == ["suspendedQueueIdle"])
  }
}

@Suite("BoardTeachingDetail: the detail view tells an operation's whole story")
struct BoardTeachingDetailTests {
  @Test func historyFlagsObserversErrorsAndWork() {
    let s = BoardSession(
      title: "Photo app", notes: "", paused: true,
      workSettings: ["analytics": "work 2s, fails 'quota exceeded'"], makeRuntime: photoRuntime)
    s.advance(by: 3)
    s.select(operation: "analytics")
    keys(s, .enter)
    let text = screen(s, 120, 60)
    #expect(text.contains("work  work 2s, fails 'quota exceeded'"))
    #expect(text.contains("0.00  ● executing             2.00s"))
    #expect(text.contains("2.00  ◑ finishing             0.00s"))
    #expect(text.contains("isReady isExecuting isFinished isCancelled"))
    #expect(text.contains("      0.00     yes         yes         no          no"))
    #expect(text.contains("      2.00     yes          no        yes          no"))
    #expect(text.contains("0.00  didStart"))
    #expect(text.contains("2.00  didFinish"))
    #expect(text.contains("✗ quota exceeded"))
    #expect(text.contains("Waited for by (1)"))
    #expect(text.contains("✓ purge             finished"))
    #expect(text.contains("why  finished with errors"))
  }

  @Test func conditionsShowTheirEvaluationSpanAndResult() {
    let s = photoSession()
    s.advance(by: 15)
    s.select(operation: "upload")
    keys(s, .enter)
    let text = screen(s, 120, 60)
    #expect(text.contains("✓ loggedIn: satisfied  evaluated 13.00–14.00 (1.00s)"), "\(text)")
    #expect(text.contains("✓ resize            finished"))
  }
}

@Suite("BoardTeachingTimeline: one row per operation, time across")
struct BoardTeachingTimelineTests {
  @Test func goldenAt80x24And120x40() {
    let s = photoSession()
    s.advance(by: 9)
    s.select(operation: "decode")
    keys(s, .character("t"))
    #expect(s.view == .timeline)
    assertSnapshot(of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "80x24")
    assertSnapshot(
      of: s.render(width: 120, height: 40, ascii: false), as: .styled, named: "120x40")
    assertSnapshot(
      of: s.render(width: 80, height: 24, ascii: true), as: .styled, named: "ascii-80x24")
  }

  @Test func zoomAndScrollWithoutTouchingTheQueue() {
    let s = photoSession()
    s.advance(by: 9)
    keys(s, .character("t"))
    #expect(screen(s).contains("Timeline · 0.5s per column"))
    let limit = s.model.queue(named: "network")?.maxConcurrent
    keys(s, .character("+"))
    #expect(screen(s).contains("Timeline · 0.25s per column"))
    keys(s, .character("-"), .character("Z"))
    #expect(screen(s).contains("Timeline · 1s per column"))
    keys(s, .character("z"))
    #expect(screen(s).contains("Timeline · 0.5s per column"))
    // + and - zoomed: the queue's limit is untouched and no command was sent.
    #expect(s.model.queue(named: "network")?.maxConcurrent == limit)
    #expect(
      !s.log.contains { if case .command(_, _, _, .key) = $0.event.kind { true } else { false } })
    // Outside the timeline z says where it works.
    keys(s, .escape, .character("z"))
    #expect(s.status?.text.hasPrefix("'z' works in the timeline view") == true)
    // Scrolling follows the selection past the visible rows (stress has 1,200 operations).
    let big = scenarioSession("stress")
    big.advance(by: 5)
    keys(big, .character("t"), .end)
    let last = String(big.selectedOperation!.prefix(10))
    let first = String(big.model.operations[0].name.prefix(10))
    var lines = screen(big).split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("› " + last) })
    #expect(!lines.contains { $0.dropFirst(2).hasPrefix(first + " ") })
    keys(big, .home)
    lines = screen(big).split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("› " + first) })
    keys(big, .pageDown)
    #expect(big.selectedOperation != big.model.operations[0].name)
    // The footer (from the key map) names the zoom keys in the timeline.
    keys(s, .character("t"))
    #expect(screen(s, 120, 40).split(separator: "\n").last!.contains("z/Z zoom"))
  }
}

@Suite("BoardTeachingTimeTravel: the board at any earlier moment, exactly")
struct BoardTeachingTimeTravelTests {
  @Test func arrowsStepOneEventAndMatchAFreshFold() {
    let s = photoSession()
    s.advance(by: 8)
    let total = s.log.count
    keys(s, .left)
    #expect(s.past?.position == total - 1)
    #expect(s.model == freshFold(s.runtime.events.prefix(total - 1)).0)
    for _ in 0..<10 { keys(s, .left) }
    #expect(s.model == freshFold(s.runtime.events.prefix(total - 11)).0)
    #expect(screen(s).split(separator: "\n")[0].contains("◀ past \(total - 11)/\(total)"))
    keys(s, .right)
    #expect(s.model == freshFold(s.runtime.events.prefix(total - 10)).0)
    // `.` steps forward through the past too.
    keys(s, .character("."))
    #expect(s.position == total - 9)
    for _ in 0..<9 { keys(s, .right) }
    #expect(s.past == nil)
    #expect(!screen(s).contains("◀ past"))
  }

  @Test func bracketsMoveOneSecondAndMatchAFreshFold() {
    let s = photoSession()
    s.advance(by: 8)
    keys(s, .character("["))
    #expect(s.model.now == 7)
    let k = s.runtime.events.filter { $0.time <= 7 }.count
    let (model, warnings) = freshFold(s.runtime.events.prefix(k), clock: 7)
    #expect(s.model == model)
    #expect(s.model.warnings == warnings)
    keys(s, .character("["), .character("["), .character("["))
    #expect(s.model.now == 4)
    let k4 = s.runtime.events.filter { $0.time <= 4 }.count
    #expect(s.model == freshFold(s.runtime.events.prefix(k4), clock: 4).0)
    #expect(screen(s).contains("t 4.00s"))
    keys(s, .character("]"))
    #expect(s.model.now == 5)
    for _ in 0..<3 { keys(s, .character("]")) }
    #expect(s.past == nil)
  }

  @Test func travelOnlyWhilePausedAndCommandsAreRefusedInThePast() {
    let s = photoSession(paused: false)
    s.advance(by: 3)
    keys(s, .left)
    #expect(s.past == nil)
    #expect(s.status?.kind == .rejected)
    keys(s, .character(" "), .left, .character("s"))
    #expect(s.past != nil)
    #expect(s.status?.text.contains("showing the past") == true)
    #expect(
      !s.log.contains { if case .command(_, _, _, .key) = $0.event.kind { true } else { false } })
  }

  @Test func aFilterSurvivesGoingBackBeforeItsOperationsExisted() {
    let s = photoSession()
    s.advance(by: 15)
    for k in "/login" { keys(s, .character(k)) }
    keys(s, .enter)
    #expect(screen(s).contains("login"))
    // login is produced by upload's condition at 11s: before that it does not exist.
    s.seek(toEvent: 5)
    #expect(s.model.operation(named: "login") == nil)
    #expect(screen(s).contains("nothing matches \"login\""))
    s.seek(toEvent: s.log.count)
    #expect(screen(s).contains("1 of 14"))
  }

  @Test func spaceResumesFromThePresentByDefault() {
    let s = photoSession()
    s.advance(by: 5)
    let total = s.log.count
    keys(s, .left, .left)
    #expect(screen(s).split(separator: "\n").last!.contains("p from: present"))
    keys(s, .character(" "))
    #expect(s.past == nil)
    #expect(!s.paused)
    #expect(s.log.count == total)
  }

  @Test func resumingFromHereReplaysTheFutureWithTheSameKeyCommands() {
    let s = photoSession()
    s.advance(by: 1)
    s.select(queue: "network")
    keys(s, .character("s"))  // suspend network at 1s
    s.advance(by: 2)
    let beforeTravel = s.runtime.events
    keys(s, .character("["))  // back to 2s: after the suspend
    let position = s.position
    keys(s, .character("p"))
    #expect(s.resumeFrom == .here)
    #expect(screen(s).split(separator: "\n").last!.contains("p from: here"))
    keys(s, .character(" "))
    #expect(s.past == nil)
    #expect(!s.paused)
    // The rebuilt runtime shows exactly the same first events, the key command included.
    #expect(s.log.count >= position)
    #expect(Array(s.runtime.events.prefix(position)) == Array(beforeTravel.prefix(position)))
    #expect(s.model.queue(named: "network")?.suspended == true)
  }

  @Test func warningsUnderTimeTravelAreThoseOfThePrefix() {
    let s = scenarioSession("deadlock")
    s.advance(by: 20)
    #expect(!s.model.warnings.isEmpty)
    // Back to before the cycle was reported: no warnings; forward again: the prefix's.
    let cycleSeq = s.runtime.events.first {
      if case .cycleDetected = $0.kind { true } else { false }
    }!
    .seq
    s.seek(toEvent: cycleSeq - 1)
    #expect(s.model.warnings.isEmpty)
    #expect(!screen(s).split(separator: "\n")[0].contains("⚠"))
    for k in [cycleSeq, cycleSeq + 3, s.log.count - 1] {
      s.seek(toEvent: k)
      #expect(s.model.warnings == freshFold(s.runtime.events.prefix(k)).1)
      #expect(s.model == freshFold(s.runtime.events.prefix(k)).0)
    }
  }

  @Test func seekingTheStressScenario() {
    let s = scenarioSession("stress")
    while !s.isOver { s.advance(by: 60) }
    let n = s.log.count
    #expect(n > 10_000)
    let clock = ContinuousClock()
    var worst = Duration.zero
    var positions = [0, n / 2, n - 1]
    var x: UInt64 = 42
    for _ in 0..<20 {
      x = x &* 6_364_136_223_846_793_005 &+ 1
      positions.append(Int(x >> 33) % n)
    }
    for p in positions {
      let d = clock.measure { s.seek(toEvent: p) }
      worst = max(worst, d)
      #expect(s.position == p)
    }
    // Exact at an arbitrary point, too.
    #expect(s.model == freshFold(s.runtime.events.prefix(positions.last!)).0)
    print("stress seek: \(n) events, \(positions.count) seeks, worst \(worst)")
  }
}

@Suite("BoardTeachingNarration: the last transition as a sentence with its cause")
struct BoardTeachingNarrationTests {
  @Test func aDependencyReleaseIsNarrated() throws {
    let s = photoSession()
    let released = EventKind.state(
      operation: "decode", from: .pending, to: .ready, cause: .dependencyFinished("download", of: 1)
    )
    // Reveal events one at a time up to download finishing and releasing decode.
    while let e = s.revealOne(), e.kind != released {}
    let entry = try #require(s.log.last)
    #expect(entry.event.kind == released)
    let sentence = "decode is ready: its dependency download finished"
    #expect(Narration.sentence(for: entry, in: s.model) == sentence)
    // The status line tells it when no key message is shown.
    let lines = screen(s, 120, 40).split(separator: "\n")
    #expect(lines[38].contains(sentence), "\(lines[38])")
  }
}
