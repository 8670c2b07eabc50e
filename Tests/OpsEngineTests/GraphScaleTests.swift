import Foundation
import OpsEngine
import OpsEvents
import Testing

/// Graph walks are iterative and incremental: deep chains in either declaration order, wide fan-ins
/// and long cycles neither overflow the stack nor take quadratic work.
@Suite struct GraphScaleTests {
  /// `o0 ← o1 ← … ← o(n-1)`, each depending on the one before, declared head-first or tail-first.
  func chain(_ n: Int, tailFirst: Bool) throws -> VirtualRuntime {
    let rt = VirtualRuntime(recording: false)
    try rt.addQueue(QueueSpec(name: "q"))
    var specs = (0..<n).map {
      OperationSpec(
        name: "o\($0)", dependencies: $0 > 0 ? ["o\($0 - 1)"] : [], work: WorkScript(duration: 0))
    }
    if tailFirst { specs.reverse() }
    try rt.addOperations(specs)
    for s in specs { try rt.enqueue(s.name, on: "q") }
    return rt
  }

  @Test(arguments: [false, true])
  func aHundredThousandLongChainRunsInOrder(tailFirst: Bool) throws {
    let n = Int(ProcessInfo.processInfo.environment["CHAIN_N"] ?? "") ?? 100_000
    let rt = try chain(n, tailFirst: tailFirst)
    var finished = 0
    var lastFinished = -1
    var inOrder = true
    rt.subscribe(replay: false) { e in
      if case .didFinish(let o, _, _) = e.kind {
        let i = Int(o.dropFirst())!
        inOrder = inOrder && i == lastFinished + 1
        lastFinished = i
        finished += 1
      }
    }
    rt.run()
    #expect(finished == n)
    #expect(inOrder)
    #expect(rt.projection.cycles.isEmpty)
  }

  @Test func aTenThousandWideFanIn() throws {
    let rt = VirtualRuntime(recording: false)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 4))
    let leaves = (0..<10_000).map {
      OperationSpec(name: "leaf\($0)", work: WorkScript(duration: 0.001))
    }
    try rt.addOperations(leaves + [OperationSpec(name: "join", dependencies: leaves.map(\.name))])
    for s in leaves { try rt.enqueue(s.name, on: "q") }
    try rt.enqueue("join", on: "q")
    rt.run()
    #expect(rt.state(of: "join") == .finished)
    #expect(rt.projection.operation(named: "join")?.finishedDependencies == 10_000)
  }

  @Test func aFiveThousandMemberCycleIsFoundOnceAndBrokenByACancel() throws {
    let n = 5_000
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperations(
      (0..<n).map { OperationSpec(name: "c\($0)", dependencies: ["c\(($0 + 1) % n)"]) })
    for i in 0..<n { try rt.enqueue("c\(i)", on: "q") }
    rt.run()
    let cycles = rt.events.compactMap {
      if case .cycleDetected(let ops) = $0.kind { ops } else { nil }
    }
    #expect(cycles.count == 1)
    #expect(cycles.first?.count == n)
    #expect(Set(cycles.first ?? []).count == n)
    #expect(rt.projection.whyWaiting("c42")?.hasPrefix("part of a dependency cycle") == true)
    rt.perform(.cancel(operation: "c0"))
    rt.run()
    #expect((0..<n).allSatisfy { rt.state(of: "c\($0)") == .finished })
  }

  /// A queue named like a group's inner queue is refused with an error, never a trap.
  @Test func aQueueNamedLikeAGroupsInnerQueueIsRefused() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "g.children"))
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(OperationSpec(name: "child"))
    #expect(throws: EngineError.reservedQueueName("g.children", group: "g")) {
      try rt.addOperation(OperationSpec(name: "g", children: ["child"]))
    }
    let other = VirtualRuntime()
    try other.addOperations([
      OperationSpec(name: "child"), OperationSpec(name: "g", children: ["child"]),
    ])
    #expect(throws: EngineError.reservedQueueName("g.children", group: "g")) {
      try other.addQueue(QueueSpec(name: "g.children"))
    }
  }

  /// Numbers from library callers are validated; none can trap the clock.
  @Test func badNumbersAreRefusedOrSaturated() throws {
    let rt = VirtualRuntime()
    #expect(throws: EngineError.self) { try rt.addQueue(QueueSpec(name: "q", maxConcurrent: -1)) }
    try rt.addQueue(QueueSpec(name: "q"))
    #expect(throws: EngineError.self) {
      try rt.addOperation(OperationSpec(name: "t", timeout: .nan))
    }
    #expect(throws: EngineError.self) {
      try rt.addOperation(OperationSpec(name: "w", work: WorkScript(duration: .infinity)))
    }
    try rt.addOperation(OperationSpec(name: "a"))
    try rt.enqueue("a", on: "q")
    rt.advance(by: 1e13)
    rt.run(until: .infinity)
    #expect(rt.state(of: "a") == .finished)
  }
}
