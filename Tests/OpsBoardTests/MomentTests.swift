import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// The scenario's moments as `opsview play` gives them to the board.
func boardMoments(_ scenario: Scenario) -> [Moment] { scenario.playMoments }

func momentSession(_ scenario: Scenario, paused: Bool = false) -> BoardSession {
  BoardSession(
    BoardScenario(
      title: scenario.title, notes: scenario.notes, moments: boardMoments(scenario),
      makeRuntime: { scenario.makeRuntime() }),
    speed: scenario.speed, paused: paused)
}

/// When the engine, run headless, reaches each of the scenario's moments.
private func engineTimes(_ scenario: Scenario) -> [Double?] {
  let runtime = scenario.makeRuntime()
  runtime.run()
  return scenario.moments.map { m in
    switch m.trigger {
    case .time(let t): return t
    case .action(let i): return scenario.actions[i].at
    case .state(let op, let to):
      return runtime.events.first {
        if case .state(op, _, to, _) = $0.kind { return true }
        return false
      }?.time
    }
  }
}

/// Plays the board in small ticks, continuing at each moment with m; returns (index, time) of each.
private func playThroughMoments(_ s: BoardSession, tick: Double = 0.1) -> [(Int, Double)] {
  var seen: [(Int, Double)] = []
  var guardSteps = 0
  while !s.isOver || s.currentMoment != nil, guardSteps < 100_000 {
    guardSteps += 1
    if let m = s.currentMoment {
      seen.append((m.index, s.model.now))
      #expect(s.paused)
      _ = s.handle(.character("m"))
      continue
    }
    s.tick(elapsed: tick / s.speed)
  }
  return seen
}

@Suite("Teaching moments: the board pauses at each and shows its caption")
struct MomentTests {
  @Test(arguments: Catalog.names)
  func everyBuiltInMomentIsReachedInOrderAtTheEnginesTime(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    #expect(!scenario.moments.isEmpty, "\(name) has no moments")
    let expected = engineTimes(scenario)
    let seen = playThroughMoments(momentSession(scenario))
    #expect(seen.map(\.0) == Array(scenario.moments.indices), "\(name): order")
    for ((i, time), engine) in zip(seen, expected.map { $0 ?? -1 }) {
      #expect(abs(time - engine) < 1e-6, "\(name) moment \(i) at \(time), engine says \(engine)")
    }
  }

  @Test(arguments: Catalog.names)
  func theBoardStopsWhereTheCheckerStopsAndEveryClaimHoldsThere(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let (stops, _) = MomentRun.play(scenario.makeRuntime(), moments: scenario.playMoments)
    #expect(
      stops.map(\.moment) == Array(scenario.moments.indices), "\(name): every moment, in order")
    let s = momentSession(scenario)
    var seen: [(Int, Int)] = []
    var guardSteps = 0
    while !s.isOver || s.currentMoment != nil, guardSteps < 100_000 {
      guardSteps += 1
      if let m = s.currentMoment {
        seen.append((m.index, s.model.lastSeq))
        // Each claim holds on the board as it is drawn, and the caption box lists it as holding.
        let timeline = s.momentTimeline()
        for claim in m.moment.claims {
          let failure = claim.failure(in: s.model.projection, run: timeline)
          #expect(failure == nil, "\(name) moment \(m.index + 1): \(claim.text): \(failure ?? "")")
        }
        let screen = screenText(s, 200, 60)
        for claim in m.moment.claims.prefix(2) {
          #expect(screen.contains("✓ \(claim.text)"), "\(name) moment \(m.index + 1):\n\(screen)")
        }
        _ = s.handle(.character("m"))
        continue
      }
      s.tick(elapsed: 0.1 / s.speed)
    }
    #expect(seen.map(\.0) == stops.map(\.moment), "\(name)")
    #expect(seen.map(\.1) == stops.map(\.seq), "\(name): the board stops after the same event")
  }

  @Test func anActionMomentIsReachedAfterItsCommandsEffect() throws {
    let scenario = try #require(Catalog.named("tour"))
    let s = momentSession(scenario)
    var captions: [String: BoardModel] = [:]
    var guardSteps = 0
    while !s.isOver || s.currentMoment != nil, guardSteps < 100_000 {
      guardSteps += 1
      if let m = s.currentMoment {
        captions["\(m.index)"] = s.model
        _ = s.handle(.character("m"))
        continue
      }
      s.tick(elapsed: 0.1 / s.speed)
    }
    // Moment 2 cancels prefetch, moment 3 suspends network: each effect is on the board.
    #expect(captions["1"]?.operation(named: "prefetch")?.cancelled == true)
    #expect(captions["2"]?.queue(named: "network")?.suspended == true)
    #expect(captions["3"]?.queue(named: "network")?.maxConcurrent == 3)
    #expect(captions["3"]?.operation(named: "login")?.state == .executing)
  }

  @Test func theCaptionIsShownWithCodeSpansBoldAndNoBackticks() throws {
    let scenario = try #require(Catalog.named("tour"))
    let s = momentSession(scenario)
    s.advance(by: 100)
    let m = try #require(s.currentMoment)
    #expect(m.index == 0)
    #expect(s.paused)
    #expect(s.view == .moment)
    let grid = s.render(width: 80, height: 24, ascii: false)
    let text = grid.text
    #expect(text.contains("Moment 1 of 4"))
    #expect(text.contains("download just finished, so decode on the images"))
    #expect(!text.contains("`"))
    // `download` is drawn bold.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let y = try #require(lines.firstIndex { $0.contains("download just finished") })
    let x = lines[y].distance(
      from: lines[y].startIndex, to: lines[y].range(of: "download just")!.lowerBound)
    #expect(grid[x, y].attributes.contains(.bold))
    #expect(text.contains("m continues"))
    #expect(text.contains("m next moment"))
  }

  @Test func mClosesTheCaptionAndPlaysOnToTheNextMoment() throws {
    let scenario = try #require(Catalog.named("lifecycle"))
    let s = momentSession(scenario)
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 0)
    #expect(s.model.now == 1)
    press(s, .character("m"))
    #expect(!s.paused)
    #expect(s.view == .board)
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 1)
    #expect(s.model.now == 4)
    // Esc closes the caption and stays paused there.
    press(s, .escape)
    #expect(s.view == .board)
    #expect(s.paused)
    #expect(s.currentMoment == nil)
  }

  @Test func aKeyPressedAtAMomentActsAtThatMomentsTime() throws {
    let scenario = try ScenarioLoader.parse(
      """
      queues: [{name: q, maxConcurrent: 1}]
      operations:
        - {name: a, work: 2}
        - {name: b, work: 2}
      moments:
        - {at: 1, caption: "half way through a"}
      """, file: "t.yaml", defaultID: "t")
    let s = momentSession(scenario)
    s.advance(by: 50)
    #expect(s.currentMoment?.index == 0)
    #expect(s.runtime.now == 1)
    #expect(s.model.now == 1)
    press(s, .escape, .character("c"))  // cancels the selected operation, a, at 1s
    let cancelled = s.runtime.events.first {
      if case .cancelled("a", _, _) = $0.kind { return true }
      return false
    }
    #expect(cancelled?.time == 1)
  }

  @Test func theKeyMapListsTheMomentKeyForHelpAndTheFooter() {
    let map = KeyMap.standard
    #expect(map.keyLabel(.nextMoment) == "m")
    #expect(map.footerItems(for: .moment, ascii: false).first?.text == "m next moment")
    #expect(map.bindings(in: .global).contains { $0.action == .nextMoment })
  }

  @Test func mWithoutMomentsSaysSo() {
    let s = photoSession()
    press(s, .character("m"))
    #expect(s.status?.text.contains("no teaching moments") == true)
  }
}

@Suite("A moment at the start is shown in every layout")
struct FirstMomentTests {
  @Test(arguments: ["dependencies", "async-pitfalls", "groups-and-produced"])
  func aMomentReachedAsTheBoardStartsKeepsItsCaptionInThePresenter(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let s = momentSession(scenario, paused: true)
    s.advance(by: 0)
    s.present()
    let m = try #require(s.currentMoment, "\(name): the first moment is on screen")
    #expect(m.index == 0)
    #expect(screenText(s, 80, 24).contains("Moment 1 of \(scenario.moments.count)"))
    press(s, .character("m"))
    #expect(s.view == .presenter)
    #expect(s.reachedMoments.first == 0)
  }
}

@Suite("A key at a moment is judged against its claims")
struct MomentClaimKeyTests {
  /// The tour's first moment stops inside an engine step (download finished, decode ready; the
  /// step goes on to start decode and fetchComments). A key there shows the rest of the step
  /// first, and says so: the starts are not the key's doing.
  @Test func aKeyInsideAnInstantShowsItsRestFirstAndSaysSo() throws {
    let scenario = try #require(Catalog.named("tour"))
    let s = momentSession(scenario, paused: false)
    for _ in 0..<400 where s.currentMoment?.index != 0 {
      if s.currentMoment != nil { press(s, .character("m")) } else { s.advance(by: 0.25) }
    }
    #expect(s.model.operation(named: "decode")?.state == .ready)
    let momentAt = s.log.count
    s.select(queue: "images")
    s.select(operation: "warmCache")
    press(s, .character("s"))
    // In the engine's log: decode and fetchComments start at 4s, then the key's suspend.
    let after = s.log[momentAt...].map(\.event)
    let command = try #require(
      after.firstIndex { if case .command = $0.kind { true } else { false } })
    let startsFirst = after[..<command].compactMap { e -> String? in
      if case .state(let o, _, .executing, _) = e.kind, e.time == 4 { return o }
      return nil
    }
    #expect(startsFirst == ["decode", "fetchComments"])
    #expect(
      s.lastKeyEffect
        == "s — first the rest of 4.00s played out: decode starts (slot 2 of ∞), fetchComments "
        + "starts (slot 2 of 2); then images suspended: nothing new starts; decode and warmCache "
        + "keep running")
    #expect(
      s.status?.text
        == "images suspended: running operations continue, nothing new starts — first the rest of "
        + "4.00s played out: decode starts (slot 2 of ∞), fetchComments starts (slot 2 of 2)")
    let text = screenText(s, 200, 60)
    #expect(text.contains("✗ decode is ready — no longer: it is executing"), "\(text)")
    // A key that shows nothing first says nothing of the kind.
    press(s, .character("s"))
    #expect(s.lastKeyEffect?.contains("first the rest") == false)
  }

  @Test func resumingAtTheSuspensionMomentMakesItsClaimsFailOnTheBoard() throws {
    let scenario = try #require(Catalog.named("tour"))
    let s = momentSession(scenario, paused: false)
    for _ in 0..<400 where s.currentMoment?.index != 2 {
      if s.currentMoment != nil { press(s, .character("m")) } else { s.advance(by: 0.25) }
    }
    #expect(screenText(s, 200, 60).contains("✓ network is suspended"))
    s.select(queue: "network")
    s.select(operation: "login")
    press(s, .character("s"))
    let text = screenText(s, 200, 60)
    #expect(text.contains("✗ network is suspended — no longer: it is running"), "\(text)")
    // The run ahead changed too: fetchLikes no longer waits for 10s.
    #expect(text.contains("✗ fetchLikes starts executing at 10.0s"), "\(text)")
  }
}
