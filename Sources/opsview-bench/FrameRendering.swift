import Foundation
import OpsBoard
import OpsEngine
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
}
