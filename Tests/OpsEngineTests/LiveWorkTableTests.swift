import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `LiveWorkTable`: the live runtime's per-operation state follows the operations in flight.
@Suite struct LiveWorkTableTests {
  @Test func spentSlotsAtTheStartAreDroppedAndTheRestStayReachable() {
    let rt = LiveRuntime(lints: [])
    var slots = LiveWorkTable()
    for _ in 0..<10_000 { slots.append(.none) }
    var contexts: [Int: WorkContext] = [:]
    for id in 0..<9_100 {
      let ctx = WorkContext(runtime: rt, operation: "op\(id)", id: id)
      contexts[id] = ctx
      #expect(slots.start(id, context: ctx) != nil)
    }
    // Nothing is dropped while the oldest still runs.
    for id in 1..<9_000 { #expect(slots.returned(id) === contexts[id]) }
    #expect(slots.kept == 10_000)
    #expect(slots.returned(0) === contexts[0])
    #expect(slots.kept == 1_000)
    // What is left is still found by its id: running work, waiting work, and the ids after.
    #expect(slots.context(of: 9_050) === contexts[9_050])
    #expect(slots.context(of: 8_999) == nil)
    let late = WorkContext(runtime: rt, operation: "op9999", id: 9_999)
    #expect(slots.start(9_999, context: late) != nil)
    #expect(slots.context(of: 9_999) === late)
    #expect(slots.nextID == 10_000)
    // Retiring one that never started lets its work go; one that runs keeps its context.
    slots.retired(9_500)
    slots.retired(9_050)
    #expect(slots.context(of: 9_050) === contexts[9_050])
  }

  @Test func aLiveRunKeepsSlotsOnlyForWhatIsInFlight() throws {
    let rt = LiveRuntime(lints: [])
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 4))
    for i in 0..<12_000 { try rt.addOperation(live("op\(i)"), work: .sync { _ in }, on: "q") }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.keptEntries < 8_192, "kept \(rt.keptEntries) of 12,000")
  }
}
