import OpsEngine
import OpsEvents
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

  @Test func whilePlayingTheGraphIsLaidOutOverFramesWithinABudgetAndAtOnceWhenPaused() {
    // 1,500 operations, each waiting for the one 50 before it, added at t = 0, then one more every
    // tenth of a virtual second: the structure changes every frame, and one layout is several
    // frames' budget.
    let s = BoardSession(title: "adding", notes: "", speed: 1) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
      let specs = (0..<1_600).map {
        OperationSpec(
          name: "op\($0)", dependencies: $0 >= 50 ? ["op\($0 - 50)"] : [],
          work: WorkScript(duration: 5))
      }
      try! rt.addOperations(specs)
      for (i, spec) in specs.enumerated() {
        try! rt.enqueue(spec.name, on: "q", at: i < 1_500 ? 0 : Double(i - 1_500) / 10)
      }
      return rt
    }
    s.advance(by: 0.01)
    _ = s.handle(.character("g"))
    // The first layout is built at once, whatever its size.
    _ = s.render(width: 120, height: 40, ascii: false)
    var shown = [s.graphLayout!.structureVersion]
    var spread = 0
    var overBudget = 0
    for _ in 0..<60 {
      s.tick(elapsed: 0.1)
      _ = s.render(width: 120, height: 40, ascii: false)
      if let b = s.graphBuilding {
        spread += 1
        // Within the budget, give or take the one column a step sorts whole (50 operations)...
        if b.lastWork > GraphView.layoutWorkPerFrame + 200 { overBudget += 1 }
      }
      if s.graphLayout!.structureVersion != shown.last {
        shown.append(s.graphLayout!.structureVersion)
      }
    }
    // ...except the step of a layout that indexes its edges in one pass.
    #expect(overBudget <= shown.count, "\(overBudget) frames over the budget")
    // Layouts were completed and swapped in while playing, each spread over several frames.
    #expect(shown.count >= 3, "\(shown.count) layouts")
    #expect(spread >= 30, "\(spread) frames were building")
    #expect(shown == shown.sorted())
    // Paused, what is drawn is the model exactly, and nothing is left half built.
    press(s, .character(" "))
    _ = s.render(width: 120, height: 40, ascii: false)
    #expect(s.graphLayout!.structureVersion == s.model.structureVersion)
    #expect(s.graphBuilding == nil)
  }

  @Test func aLayoutBuiltOverManyStepsIsTheLayoutBuiltAtOnce() {
    let s = BoardSession(title: "same", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
      let specs = (0..<400).map { i in
        OperationSpec(
          name: "op\(i)",
          dependencies: (i >= 7 ? ["op\(i - 7)"] : []) + (i >= 30 ? ["op\(i - 30)"] : []),
          work: WorkScript(duration: 1))
      }
      try! rt.addOperations(specs)
      for spec in specs { try! rt.enqueue(spec.name, on: "q") }
      return rt
    }
    s.advance(by: 3)
    let whole = DAGLayout(model: s.model)
    var builder = DAGLayoutBuilder(model: s.model)
    var steps = 0
    while !builder.advance(s.model, budget: 37) { steps += 1 }
    #expect(steps > 20)
    let sliced = builder.layout!
    #expect(sliced.layers == whole.layers && sliced.nodeOfOperation == whole.nodeOfOperation)
    #expect(sliced.nodes.map(\.row) == whole.nodes.map(\.row))
    #expect(sliced.lane == whole.lane && sliced.lanes == whole.lanes)
    #expect(sliced.nameWidth == whole.nameWidth && sliced.cycleEdges == whole.cycleEdges)
    #expect(whole.layers.count > 10 && whole.nodes.count > 400)
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
