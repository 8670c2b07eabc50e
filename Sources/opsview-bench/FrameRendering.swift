import Foundation
import OpsBoard
import OpsEngine
import OpsEvents
import OpsScenarios

/// Milliseconds per rendered 200×60 frame, averaged over `frames` frames that scroll the operations.
func frameMilliseconds(_ session: BoardSession, frames: Int = 200) -> Double {
  let start = DispatchTime.now()
  for i in 0..<frames {
    _ = session.handle(i % 20 < 10 ? .pageDown : .pageUp)
    _ = session.render(width: 200, height: 60, ascii: false)
  }
  return seconds(since: start) * 1000 / Double(frames)
}

func renderingBenchmark() {
  print("\nRendering a 200×60 frame (scrolling a page each frame, mean of 200 frames)")
  if let stress = Catalog.named("stress") {
    let s = BoardSession(
      title: stress.title, notes: stress.notes, paused: true, makeRuntime: { stress.makeRuntime() })
    s.advance(by: 15)
    print(
      "stress (\(stress.operations.count) operations) at 15s: \(fmt(frameMilliseconds(s), 3)) ms/frame"
    )
  }
  let big = BoardSession(title: "10k", notes: "", paused: true) {
    let rt = VirtualRuntime()
    try? rt.addQueue(QueueSpec(name: "q", maxConcurrent: 8))
    let specs = (0..<10_000).map { OperationSpec(name: "op\($0)", work: WorkScript(duration: 0.5)) }
    try? rt.addOperations(specs)
    for spec in specs { try? rt.enqueue(spec.name, on: "q") }
    return rt
  }
  big.advance(by: 30)
  print("10,000 operations at 30s: \(fmt(frameMilliseconds(big), 3)) ms/frame")
  playingViewFrames(largeScenario(operations: 10_000))
}

/// The generated 10,000-operation scenario playing at 10×: milliseconds per 200×60 frame (the render
/// alone, mean of 150 frames, each after a thirtieth-of-a-second tick, so the model changes every
/// frame, after one frame that is not counted) on the board, the graph view, and the board with a
/// filter that matches ~1 in 9; from 20 s (operations are still being added) and from 60 s (all are).
func playingViewFrames(_ scenario: Scenario) {
  print("\n10,000 generated operations playing at 10×: render ms/frame (mean and worst of 150)")
  let views = [("board", ""), ("graph", "g"), ("filter tr1", "/tr1\r")]
  for (from, (label, keys)) in [20.0, 60].flatMap({ t in views.map { (t, $0) } }) {
    let s = playBoard(scenario, speed: 10, paused: true)
    s.advance(by: from)
    for key in keys { _ = s.handle(key == "\r" ? .enter : .character(key)) }
    _ = s.handle(.character(" "))
    // The first frame lays out the graph or scans for the filter from scratch: not counted.
    _ = s.render(width: 200, height: 60, ascii: false)
    var total = 0.0
    var worst = 0.0
    for _ in 0..<150 {
      s.tick(elapsed: 1.0 / 30)
      let start = DispatchTime.now()
      _ = s.render(width: 200, height: 60, ascii: false)
      let frame = seconds(since: start)
      total += frame
      worst = max(worst, frame)
    }
    let shown =
      s.filter.isEmpty
      ? "" : " (\(s.model.operations.filter { $0.name.hasPrefix("tr1") }.count) match)"
    print(
      "  from \(Int(from)) s: \(pad(label, 12)) \(fmt(total * 1000 / 150, 3)) ms/frame, worst "
        + "\(fmt(worst * 1000, 2))\(shown)"
        + " (load \(loadAverage()))")
  }
}
