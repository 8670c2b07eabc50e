import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

@Suite("BoardPlayback: the clock, the speed ladder, the footer and restart")
struct PlaybackTests {
  @Test func theClockStopsAtTheLastEventAtAnySpeed() {
    let s = builtInSession("tour", paused: false, speed: 1000)
    var frames = 0
    while !s.isOver && frames < 1000 {
      s.tick(elapsed: 1.0 / 30 + 0.25)
      frames += 1
    }
    #expect(s.isOver)
    let last = s.log.last!.time
    // The engine's own end of the run, headless.
    let engine = Catalog.named("tour")!.makeRuntime()
    engine.run()
    #expect(last == engine.events.last!.time)
    #expect(s.model.now == last)
    #expect(screenText(s, 120, 40).contains("over at \(clockText(last))s"))
  }

  @Test func speedsComeFromALadderAndMessagesStateTheBounds() {
    let s = builtInSession("tour", speed: 1000)
    press(s, .character("<"))
    #expect(s.speed == 500)
    press(s, .character(">"), .character(">"))
    #expect(s.speed == 1000)
    #expect(s.status?.kind == .rejected)
    #expect(s.status?.text.contains("1000×") == true)
    #expect(s.status?.text.contains("0.1×") == true, "\(s.status?.text ?? "")")
    for _ in 0..<20 { press(s, .character("<")) }
    #expect(s.speed == 0.1)
    #expect(s.status?.text.contains("slowest") == true)
    // A speed off the ladder steps to the next rung.
    let odd = builtInSession("tour", speed: 3)
    press(odd, .character(">"))
    #expect(odd.speed == 5)
    let odd2 = builtInSession("tour", speed: 3)
    press(odd2, .character("<"))
    #expect(odd2.speed == 2)
    #expect(screenText(odd2).split(separator: "\n")[0].contains("2×"))
  }

  @Test func theFooterSaysWhatSpaceWillDo() {
    let s = photoSession(paused: true)
    #expect(screenLines(s).last!.contains("Space play"))
    press(s, .character(" "))
    #expect(screenLines(s).last!.contains("Space pause"))
  }

  @Test func theStatusLineForgetsPlayingWhenTheRunEnds() {
    let s = photoSession(paused: false)
    press(s, .character(">"), .character(">"), .character(">"))
    press(s, .character(" "), .character(" "))
    #expect(s.status?.text.contains("playing at") == true)
    for _ in 0..<40 { s.tick(elapsed: 1) }
    #expect(s.isOver)
    let status = screenLines(s).dropLast().last!
    #expect(!status.contains("playing at"), "\(status)")
    #expect(status.contains("over"), "\(status)")
  }

  @Test func restartReReadsTheScenario() {
    var reads = 0
    let s = BoardSession(
      title: "v0", notes: "", paused: true,
      makeRuntime: {
        let rt = VirtualRuntime()
        try! rt.addQueue(QueueSpec(name: "before"))
        return rt
      },
      reload: {
        reads += 1
        if reads == 2 { throw ReloadError() }
        return BoardScenario(title: "v\(reads)", notes: "changed") {
          let rt = VirtualRuntime()
          try! rt.addQueue(QueueSpec(name: "after"))
          return rt
        }
      })
    press(s, .character("r"), .character("y"))
    #expect(reads == 1)
    #expect(s.model.queue(named: "after") != nil)
    #expect(s.title == "v1" && s.notes == "changed")
    press(s, .character("r"), .character("y"))
    #expect(reads == 2)
    #expect(s.status?.kind == .rejected)
    #expect(s.status?.text.contains("broken on purpose") == true)
    #expect(s.title == "v1")
  }
}

private struct ReloadError: Error, CustomStringConvertible {
  var description: String { "line 3: broken on purpose" }
}

/// While the board says it needs more room, nothing of it is on screen: the clock and keys wait.
@Suite("Below the minimum size the clock holds and keys wait")
struct TooSmallHoldTests {
  @Test func theClockHoldsKeysWaitAndPlayingGoesOnAsItWasOnceTheSizeIsBack() {
    let s = builtInSession("tour", paused: false)
    s.tick(elapsed: 1)
    let now = s.model.now
    let shown = s.log.count
    #expect(now > 0)
    let small = screenText(s, 50, 12)
    #expect(small.contains("needs at least 60×16"), "\(small)")
    #expect(small.contains("keys wait"), "\(small)")
    #expect(s.nextFrameDelay == nil, "nothing animates: the terminal waits for a key or a resize")
    s.tick(elapsed: 5)
    #expect(s.model.now == now, "the clock holds")
    #expect(s.log.count == shown, "no event is revealed")
    // Keys wait (the small screen names the last one); redraw and resize do not quit.
    press(s, .character("s"), .character(" "), .character("P"), .character("?"), .ctrl("l"))
    press(s, .resize)
    #expect(s.model.queue(named: "network")?.suspended == false)
    #expect(!s.paused)
    #expect(s.view == .board)
    #expect(!s.helpVisible)
    #expect(screenText(s, 50, 12).contains("did nothing"))
    s.tick(elapsed: 5)
    #expect(s.model.now == now)
    // q still quits.
    #expect(!s.handle(.character("q")))
    // The size is back: playing goes on from where it was.
    let back = screenText(s, 80, 24)
    #expect(back.contains("▶ playing"), "\(back)")
    #expect(!back.contains("did nothing"))
    #expect(s.nextFrameDelay != nil)
    s.tick(elapsed: 0.5)
    #expect(s.model.now > now)
    #expect(s.model.now < now + 0.5 * s.speed + 1e-9)
  }

  @Test func aPausedBoardStaysPausedAndAQuestionStaysAsked() {
    let s = builtInSession("tour")
    s.setQuiz(true)
    press(s, .character("."))
    let q = s.quizQuestion
    #expect(q != nil)
    _ = screenText(s, 59, 16)
    press(s, .enter, .character("1"), .escape)
    _ = screenText(s, 60, 16)
    #expect(s.quizQuestion == q, "the question waits for its answer")
    #expect(s.paused)
  }
}
