import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `Projection.apply(_:rowHint:)`: a hint saves a lookup by name when it is right, and changes
/// nothing when it is wrong (the live runtime's hints come from its engine, see `EventBuffer`).
@Suite struct ProjectionSlotHintTests {
  /// Right, wrong, missing and out-of-range hints fold to the same projection as no hints at all.
  @Test func anyHintFoldsLikeNone() throws {
    var operations: [(OperationSpec, String)] = []
    for i in 0..<40 {
      let deps = i > 4 ? ["o\(i % 5)"] : []
      operations.append((op("o\(i)", work: Double(i % 3 + 1), deps: deps), i % 2 == 0 ? "q" : "r"))
    }
    let rt = try makeRuntime(
      queues: [QueueSpec(name: "q", maxConcurrent: 2), QueueSpec(name: "r")], operations: operations
    )
    rt.run()
    var plain = Projection()
    var hinted = Projection()
    var generator = SystemRandomNumberGenerator()
    var right = 0
    for e in rt.events {
      plain.apply(e)
      let slot = e.kind.operation.flatMap { plain.index(ofOperation: $0) } ?? -1
      let hint =
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: slot
        case 1: Int.random(in: 0..<max(1, plain.operations.count), using: &generator)
        case 2: -1
        default: plain.operations.count + 5
        }
      if hint == slot && slot >= 0 { right += 1 }
      hinted.apply(e, rowHint: hint)
    }
    #expect(right > 0)
    #expect(hinted == plain)
    #expect(hinted.operations.map(\.state) == plain.operations.map(\.state))
    #expect(hinted.operations.map(\.finishedAt) == plain.operations.map(\.finishedAt))
  }

  /// A retired operation's slot never matches, even when its name is taken again and a hint points
  /// at the old slot.
  @Test func aRetiredSlotIsNeverTakenForANewOperationOfTheSameName() {
    var p = Projection(keepsHistory: false, keepsMembers: false, keepsDependents: false)
    var seq = 0
    func apply(_ kind: EventKind, hint: Int = -1) {
      seq += 1
      p.apply(Event(seq: seq, time: Double(seq), kind: kind), rowHint: hint)
    }
    func added(_ name: String) -> EventKind {
      .operationAdded(
        operation: name, queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: nil)
    }
    apply(.queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default))
    apply(added("a"))
    let path: [OperationState] = [
      .initialized, .pending, .ready, .executing, .finishing, .finished,
    ]
    for (from, to) in zip(path, path.dropFirst()) {
      apply(.state(operation: "a", from: from, to: to, cause: .workReturned), hint: 0)
    }
    p.retire("a")
    apply(added("b"))
    apply(added("a"))
    // Two more, so the fold no longer remembers where it put the new a.
    apply(added("c"))
    apply(added("d"))
    // Hinted at the retired slot: wrong, and the new a moves all the same.
    apply(
      .state(operation: "a", from: .initialized, to: .pending, cause: .added(queue: "q")), hint: 0)
    apply(added("e"))
    apply(added("f"))
    // Hinted at b's slot: wrong too.
    apply(.state(operation: "a", from: .pending, to: .ready, cause: .noDependencies), hint: 1)
    #expect(p.operations[2].name == "a" && p.operations[2].state == .ready)
    #expect(p.operations[1].name == "b" && p.operations[1].state == .initialized)
    #expect(p.operations[0].state == .finished && p.operations[0].index == -1)
    #expect(p.queues[0].counts[.ready] == 1 && p.queues[0].counts[.initialized] == 5)
  }
}
