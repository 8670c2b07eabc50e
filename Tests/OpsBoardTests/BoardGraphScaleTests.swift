import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// The board over graphs that used to overflow the stack or take quadratic work: a deep chain declared
/// tail-first, a wide fan-in, a long cycle. Every view renders and says what the engine said.
@Suite struct BoardGraphScaleTests {
  func session(_ build: @escaping @Sendable (VirtualRuntime) throws -> Void) -> BoardSession {
    BoardSession(title: "scale", notes: "", paused: true) {
      let rt = VirtualRuntime()
      try! build(rt)
      return rt
    }
  }

  func everyViewRenders(_ s: BoardSession, select name: String) {
    s.select(operation: name)
    for key in ["g", "w", "t", "l"] {
      _ = s.handle(.character(Character(key)))
      #expect(s.render(width: 120, height: 40, ascii: false).text.contains("opsview"))
      _ = s.handle(.escape)
    }
    _ = s.handle(.enter)
    #expect(s.render(width: 120, height: 40, ascii: false).text.contains(name))
    _ = s.handle(.escape)
  }

  @Test func aTwentyThousandChainDeclaredTailFirst() {
    let n = 20_000
    let s = session { rt in
      try rt.addQueue(QueueSpec(name: "q"))
      let specs = (0..<n).reversed().map {
        OperationSpec(
          name: "o\($0)", dependencies: $0 > 0 ? ["o\($0 - 1)"] : [], work: WorkScript(duration: 0))
      }
      try rt.addOperations(specs)
      for spec in specs { try rt.enqueue(spec.name, on: "q") }
    }
    s.advance(by: 1)
    #expect(s.model.operations.count == n)
    #expect(s.model.unfinishedCount == 0)
    everyViewRenders(s, select: "o\(n / 2)")
  }

  @Test func aFiveThousandMemberCycle() {
    let n = 5_000
    let s = session { rt in
      try rt.addQueue(QueueSpec(name: "q"))
      try rt.addOperations(
        (0..<n).map { OperationSpec(name: "c\($0)", dependencies: ["c\(($0 + 1) % n)"]) })
      for i in 0..<n { try rt.enqueue("c\(i)", on: "q") }
    }
    s.advance(by: 10)
    #expect(s.model.cycles.count == 1)
    #expect(s.model.warnings.filter { $0.kind == "dependencyCycle" }.count == n)
    s.select(operation: "c7")
    #expect(
      s.render(width: 200, height: 60, ascii: false).text.contains("part of a dependency cycle"))
    everyViewRenders(s, select: "c7")
  }

  @Test func aTenThousandWideFanIn() {
    let s = session { rt in
      try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 8))
      let leaves = (0..<10_000).map {
        OperationSpec(name: "leaf\($0)", work: WorkScript(duration: 0.01))
      }
      try rt.addOperations(leaves + [OperationSpec(name: "join", dependencies: leaves.map(\.name))])
      for leaf in leaves { try rt.enqueue(leaf.name, on: "q") }
      try rt.enqueue("join", on: "q")
    }
    s.advance(by: 5)
    s.select(operation: "join")
    #expect(s.render(width: 120, height: 40, ascii: false).text.contains("join"))
    everyViewRenders(s, select: "join")
  }
}
