import Testing

@testable import OpsEngine
@testable import OpsEvents

/// `Projection.retire` leaves a retired name in the index until a sweep: lookups never find it, a
/// new operation may take the name, and a sweep keeps every live one.
@Suite struct ProjectionRetirementTests {
  @Test func retiredNamesAreUnknownBeforeAndAfterASweepAndCanBeTakenAgain() {
    var p = Projection(keepsHistory: false, keepsMembers: false, keepsDependents: false)
    var seq = 0
    func apply(_ kind: EventKind) {
      seq += 1
      p.apply(Event(seq: seq, time: Double(seq), kind: kind))
    }
    func run(_ name: String) {
      apply(
        .operationAdded(
          operation: name, queue: "q", priority: .normal, qos: .default, kind: .plain,
          dependencies: [], conditions: [], exclusivity: [], work: nil))
      let path: [OperationState] = [
        .initialized, .pending, .ready, .executing, .finishing, .finished,
      ]
      for (from, to) in zip(path, path.dropFirst()) {
        apply(.state(operation: name, from: from, to: to, cause: .workReturned))
      }
    }
    apply(.queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default))
    // Enough retirements for a sweep (more than 4,096 stale names, four times the live ones).
    for i in 0..<6_000 { run("op\(i)") }
    for i in 0..<5_900 { p.retire("op\(i)") }
    #expect(p.knownOperationCount == 100)
    for i in [0, 1, 4_095, 4_096, 5_899] {
      #expect(p.operation(named: "op\(i)") == nil && p.index(ofOperation: "op\(i)") == nil)
    }
    for i in 5_900..<6_000 { #expect(p.operation(named: "op\(i)")?.index == i) }
    // A retired name taken again is the new operation's, and retiring that one forgets it too:
    // one swept out (op7) and one still in the index (op5850).
    run("op7")
    run("op5850")
    #expect(p.operation(named: "op7")?.index == 6_000 && p.knownOperationCount == 102)
    #expect(p.operation(named: "op5850")?.index == 6_001)
    p.retire("op7")
    p.retire("op5850")
    #expect(p.operation(named: "op7") == nil && p.operation(named: "op5850") == nil)
    #expect(p.knownOperationCount == 100)
    // Retiring an unknown or already retired name changes nothing.
    p.retire("op7")
    p.retire("nobody")
    #expect(p.knownOperationCount == 100 && p.unfinishedCount == 0)
  }

  /// A cancelled operation is counted (`traits.cancelled`, which lets a lint skip its lookups) until
  /// it is retired.
  @Test func aRetiredCancelledOperationIsNoLongerCounted() {
    var p = Projection(keepsHistory: false, keepsMembers: false, keepsDependents: false)
    let kinds: [EventKind] = [
      .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default),
      .operationAdded(
        operation: "a", queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: nil),
      .cancelled(operation: "a", errors: [], cause: .command),
      .cancelled(operation: "a", errors: [], cause: .command),
      .state(operation: "a", from: .initialized, to: .finished, cause: .skippedMain),
    ]
    var counts: [Int] = []
    for (i, kind) in kinds.enumerated() {
      p.apply(Event(seq: i + 1, time: 0, kind: kind))
      counts.append(p.traits.cancelled)
    }
    p.retire("a")
    counts.append(p.traits.cancelled)
    // Cancelled twice, counted once; gone with its retirement.
    #expect(counts == [0, 0, 1, 1, 1, 0])
  }
}
