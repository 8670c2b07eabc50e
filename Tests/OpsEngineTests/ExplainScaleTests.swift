import OpsEngine
import OpsEvents
import Testing

/// `--explain` stays linear in the events on the shapes that made it quadratic: a wide fan-in on a
/// limited queue, a long dependency cycle broken by a cancel, and many operations between barriers.
/// The work is counted (operations explained), not timed: four times the run may cost about four times the
/// work.
@Suite struct ExplainScaleTests {
  /// The operations explained, and the size of the run: its events plus its dependency edges (a
  /// barrier depends on everything before it in its queue, so barriers make the graph itself grow
  /// faster than the operations).
  private func explainedWork(_ rt: VirtualRuntime) -> (explained: Int, events: Int) {
    rt.run()
    let edges = rt.events.reduce(0) {
      if case .operationAdded(_, _, _, _, _, let deps, _, _, _) = $1.kind {
        $0 + deps.count
      } else {
        $0
      }
    }
    var explainer = WaitingExplainer()
    for e in rt.events { _ = explainer.lines(before: e) }
    _ = explainer.finish()
    return (explainer.explained, rt.events.count + edges)
  }

  private func fanIn(_ n: Int) throws -> VirtualRuntime {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 8))
    let deps = (0..<n).map { "d\($0)" }
    try rt.addOperations(
      deps.map { OperationSpec(name: $0, work: WorkScript(duration: 0.01)) }
        + [OperationSpec(name: "sink", dependencies: deps, work: WorkScript(duration: 1))])
    for d in deps { try rt.enqueue(d, on: "q") }
    try rt.enqueue("sink", on: "q")
    return rt
  }

  private func cycle(_ n: Int) throws -> VirtualRuntime {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 2))
    try rt.addOperations(
      (0..<n).map {
        OperationSpec(
          name: "c\($0)", dependencies: ["c\(($0 + 1) % n)"], work: WorkScript(duration: 0.01))
      })
    for i in 0..<n { try rt.enqueue("c\(i)", on: "q") }
    rt.schedule(.cancel(operation: "c0"), at: 1)
    return rt
  }

  private func barriers(_ n: Int) throws -> VirtualRuntime {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 4))
    let specs = (0..<n).map { i in
      OperationSpec(name: "o\(i)", barrier: i % 50 == 49, work: WorkScript(duration: 0.01))
    }
    try rt.addOperations(specs)
    for s in specs { try rt.enqueue(s.name, on: "q") }
    return rt
  }

  @Test(arguments: ["fan-in", "cycle", "barriers"])
  func explainingGrowsLinearly(shape: String) throws {
    let make: (Int) throws -> VirtualRuntime =
      switch shape {
      case "fan-in": fanIn
      case "cycle": cycle
      default: barriers
      }
    let small = try explainedWork(make(200))
    let large = try explainedWork(make(800))
    // Each event explains a bounded number of operations …
    #expect(large.explained <= 8 * large.events, "\(large)")
    // … and four times the run is about four times the work, not sixteen.
    let growth =
      (Double(large.explained) / Double(small.explained))
      / (Double(large.events) / Double(small.events))
    #expect(growth < 1.5, "\(small) → \(large)")
  }
}
