import OpsEngine
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
