import OpsEngine
import Testing

@testable import OpsBoard

/// Ten thousand operations on four queues, chained in a binary tree of dependencies.
private func bigSession() -> BoardSession {
  BoardSession(title: "10,000 operations", notes: "", paused: true) {
    let rt = VirtualRuntime()
    for q in ["ingest", "transform", "store", "notify"] {
      try! rt.addQueue(QueueSpec(name: q, maxConcurrent: 8))
    }
    let queues = ["ingest", "transform", "store", "notify"]
    let specs = (0..<10_000).map {
      OperationSpec(
        name: "op\($0)", dependencies: $0 >= 2 ? ["op\($0 / 2)"] : [],
        work: WorkScript(duration: 0.2))
    }
    try! rt.addOperations(specs)
    for (i, s) in specs.enumerated() { try! rt.enqueue(s.name, on: queues[i % 4]) }
    return rt
  }
}

@Suite("BoardPerformance: frame work follows what is visible, not the scenario's size")
struct BoardPerformanceTests {
  @Test func aFrameFormatsOnlyTheVisibleRows() {
    let s = bigSession()
    s.advance(by: 3)
    #expect(s.model.operations.count == 10_000)
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
      _ = s.render(width: w, height: h, ascii: false)
      let layout = BoardLayout(width: w, height: h, queueCount: 4)
      #expect(s.lastStats.operationRowsDrawn == layout.operationRows.height)
      #expect(s.lastStats.queueRowsDrawn == layout.queueRows!.height)
      #expect(s.lastStats.logLinesDrawn <= h)
    }
    // Scrolling to the end costs the same.
    _ = s.handle(.end)
    _ = s.render(width: 80, height: 24, ascii: false)
    #expect(s.selectedOperation == "op9999")
    #expect(s.lastStats.operationRowsDrawn == 9)
    for _ in 0..<100 { _ = s.handle(.pageUp) }
    _ = s.render(width: 80, height: 24, ascii: false)
    #expect(s.lastStats.operationRowsDrawn == 9)
  }

  @Test func aFilterIsKeptIncrementally() {
    let s = bigSession()
    s.advance(by: 1)
    for k in "/op99" { _ = s.handle(.character(k)) }
    _ = s.render(width: 80, height: 24, ascii: false)
    // The first frame with a new query looks at every operation once ...
    #expect(s.lastStats.filterScanned == 10_000)
    _ = s.render(width: 80, height: 24, ascii: false)
    // ... later frames of an unchanged model look at none ...
    #expect(s.lastStats.filterScanned == 0)
    s.advance(by: 1)
    _ = s.render(width: 80, height: 24, ascii: false)
    // ... and a name filter only looks at operations added since.
    #expect(s.lastStats.filterScanned == 0)
    #expect(s.lastStats.operationRowsDrawn == 9)
    #expect(s.render(width: 80, height: 24, ascii: false).text.contains("1–9 of 111"))
  }

  @Test func theGraphViewDrawsOnlyVisibleNodes() {
    let s = bigSession()
    _ = s.handle(.character("g"))
    _ = s.render(width: 120, height: 40, ascii: false)
    #expect(s.lastStats.graphNodesDrawn > 0)
    #expect(s.lastStats.graphNodesDrawn <= 37 * 14)
    _ = s.handle(.end)
    _ = s.render(width: 120, height: 40, ascii: false)
    #expect(s.lastStats.graphNodesDrawn <= 37 * 14)
    // The layout is computed once for the structure, not per frame.
    let layout = s.graphLayout!
    _ = s.render(width: 120, height: 40, ascii: false)
    #expect(s.graphLayout!.structureVersion == layout.structureVersion)
    #expect(layout.layers.count == 14)
  }

  @Test func whilePlayingTheGraphIsLaidOutAgainEveryFewFramesAndAtOnceWhenPaused() {
    // An operation added every tenth of a virtual second: the structure changes every frame.
    let s = BoardSession(title: "adding", notes: "", speed: 1) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q"))
      let specs = (0..<200).map { OperationSpec(name: "op\($0)", work: WorkScript(duration: 5)) }
      try! rt.addOperations(specs)
      for (i, spec) in specs.enumerated() {
        try! rt.enqueue(spec.name, on: "q", at: Double(i) / 10)
      }
      return rt
    }
    _ = s.handle(.character("g"))
    var layouts = 0
    var framesBehind = 0
    var lastLayout = -1
    for _ in 0..<60 {
      s.tick(elapsed: 0.1)
      _ = s.render(width: 120, height: 40, ascii: false)
      let version = s.graphLayout!.structureVersion
      if version != lastLayout { layouts += 1 }
      lastLayout = version
      framesBehind = version == s.model.structureVersion ? 0 : framesBehind + 1
      #expect(framesBehind < GraphView.framesBetweenLayouts)
    }
    #expect(layouts <= 60 / GraphView.framesBetweenLayouts + 1)
    // Paused, what is drawn is the model exactly.
    press(s, .character(" "))
    _ = s.render(width: 120, height: 40, ascii: false)
    #expect(s.graphLayout!.structureVersion == s.model.structureVersion)
  }

  @Test func theDetailViewOfABarrierDependingOnEverythingIsCapped() {
    let s = BoardSession(title: "barrier", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: 0))
      let specs =
        (0..<5_000).map { OperationSpec(name: "w\($0)") } + [
          OperationSpec(name: "barrier", barrier: true)
        ]
      try! rt.addOperations(specs)
      for spec in specs { try! rt.enqueue(spec.name, on: "q") }
      return rt
    }
    s.select(operation: "barrier")
    _ = s.handle(.enter)
    let text = s.render(width: 120, height: 40, ascii: false).text
    #expect(text.contains("Waits for (5000)"))
    for _ in 0..<300 { _ = s.handle(.down) }
    #expect(s.render(width: 120, height: 40, ascii: false).text.contains("+4800 more"))
  }
}
