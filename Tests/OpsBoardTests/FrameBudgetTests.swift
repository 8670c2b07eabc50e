import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// Playing folds at most a budget of events per frame, whatever the speed: the rest is folded on the
/// frames that follow, so no frame waits for a long fold and keys act between frames.
@Suite("Frame budget: playing folds events in slices")
struct FrameBudgetTests {
  /// 300 operations on an unlimited queue, all due in the first virtual second: at 1000× one frame
  /// makes far more events due than a budget of 25.
  private func burstSession(paused: Bool = false, moments: [Moment] = []) -> BoardSession {
    let scenario = BoardScenario(title: "burst", notes: "", moments: moments) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q"))
      let specs = (0..<300).map { (i: Int) -> OperationSpec in
        let dependencies: [String] = i > 0 && i % 3 == 0 ? ["op\(i - 1)"] : []
        let work = 0.1 + Double(i % 7) / 10
        return OperationSpec(
          name: "op\(i)", dependencies: dependencies, work: WorkScript(duration: work))
      }
      try! rt.addOperations(specs)
      for s in specs { try! rt.enqueue(s.name, on: "q", at: Double(s.name.count) / 10) }
      return rt
    }
    return BoardSession(scenario, speed: 1000, paused: paused)
  }

  /// Plays `s` frame by frame with a budget of 25 events, checking each frame keeps to it; `after`
  /// gets the log's length before the frame. Returns the number of frames.
  @discardableResult
  func playInSlices(_ s: BoardSession, after: (Int) -> Void) -> Int {
    s.foldBudget = 25
    var frames = 0
    while !s.isOver && frames < 10_000 {
      let before = s.log.count
      s.tick(elapsed: 1)
      #expect(s.log.count - before <= 25)
      after(before)
      frames += 1
    }
    return frames
  }

  @Test func eachFrameFoldsAtMostTheBudgetAndTheEndIsTheWholeFold() {
    let s = burstSession()
    let frames = playInSlices(s) { before in
      #expect(s.log.count > before, "a frame with work left folds some of it")
    }
    #expect(s.isOver)
    // Far more frames than one: the run (well over a thousand events) was spread out.
    #expect(frames >= s.log.count / 25)

    let whole = burstSession(paused: true)
    whole.advance(by: 1e6)
    #expect(whole.isOver)
    #expect(s.log == whole.log)
    #expect(s.model == whole.model)
    #expect(s.model.now == s.log.last!.time)
  }

  @Test func aFrameShowsTheClockOfTheLastEventItFolded() {
    let s = burstSession()
    s.foldBudget = 25
    s.tick(elapsed: 1)
    // A thousand virtual seconds were due, but the clock shown is where the folding stopped.
    #expect(s.model.now == s.log.last!.time)
    #expect(s.model.now < 1000)
    #expect(!s.isOver)
  }

  @Test func pausingBetweenSlicesStopsTheFolding() {
    let s = burstSession()
    s.foldBudget = 25
    s.tick(elapsed: 1)
    press(s, .character(" "))
    #expect(s.paused)
    let shown = s.log.count
    s.tick(elapsed: 1)
    #expect(s.log.count == shown, "a paused board folds nothing")
    // Playing again goes on from there, at most a budget per frame.
    press(s, .character(" "))
    let resumed = s.log.count
    s.tick(elapsed: 1)
    #expect(s.log.count - resumed <= 25)
    #expect(s.handle(.character("q")) == false)
  }

  @Test func withTeachingMomentsAFrameFoldsAtMostTheBudgetToo() {
    let moments = [
      Moment(.time(0.45), caption: "the second hundred is being added"),
      Moment(.state(operation: "op250", to: .finished), caption: "op250 finished"),
    ]
    let s = burstSession(moments: moments)
    playInSlices(s) { _ in
      if s.currentMoment != nil { press(s, .character("m")) }
    }
    #expect(s.isOver)
    #expect(s.reachedMoments == [0, 1])
    let whole = burstSession(paused: true)
    whole.advance(by: 1e6)
    #expect(s.log == whole.log)
    #expect(s.model == whole.model)
  }
}
