import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsProbe

/// A viewer that attaches late, or after the probe dropped events, shows what the program has:
/// every unfinished operation in its current state, the queues as they are, nothing invented (the
/// steps it did not see are marked `sampled`).
extension ProbeTests {
  /// The board's fold of what a client received.
  static func projection(_ events: [Event]) -> Projection {
    var p = Projection()
    for e in events { p.apply(e) }
    return p
  }

  @Test func aViewerAttachingMidRunShowsTheOperationsAddedBeforeInTheirStates() throws {
    let probe = try Probe.startOrThrow(
      program: "probe-attach-late", sampleInterval: 0.01, capacity: 100)
    defer { probe.stop() }
    // An early viewer takes everything, so the small buffer lets the oldest events go.
    let early = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
    let queue = ObservedOperationQueue(name: "work", maxConcurrent: 2)
    let gate = DispatchSemaphore(value: 0)
    var ops: [BlockOperation] = []
    for i in 0..<120 {
      let op = BlockOperation { if i < 2 { gate.wait() } }
      op.name = "job \(i)"
      ops.append(op)
    }
    ops[5].addDependency(ops[4])
    queue.addOperations(ops, waitUntilFinished: false)
    let collected = Collected()
    #expect(
      collected.eventuallySees(early) {
        $0 == .state(operation: "job 1", from: .ready, to: .executing, cause: .sampled)
      })
    early.close()
    queue.maxConcurrentOperationCount = 3
    let late = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
    defer { late.close() }
    let seen = Collected()
    var caughtUpAt = 0
    #expect(
      eventually {
        let m = late.drain()
        seen.events += m.events.map(\.event)
        caughtUpAt = max(caughtUpAt, m.caughtUpAt)
        let p = Self.projection(seen.events)
        return p.operation(named: "job 0")?.state == .executing
          && p.operation(named: "job 1")?.state == .executing
          && (2..<120).allSatisfy { p.operation(named: "job \($0)") != nil }
      }, "the late viewer has \(seen.events.count) events")
    #expect(caughtUpAt > 0)
    let p = Self.projection(seen.events)
    #expect(p.queue(named: "work")?.maxConcurrent == 3)
    #expect(p.operation(named: "job 5")?.dependencies == ["job 4"])
    // What it did not see is not told as seen: every step up to the snapshot says "sampled".
    #expect(
      seen.events.allSatisfy {
        if case .state(_, _, _, let cause) = $0.kind { cause == .sampled } else { true }
      })
    #expect(seen.events.map(\.seq) == Array(seen.events.first!.seq...seen.events.last!.seq))
    gate.signal()
    gate.signal()
    #expect(
      eventually {
        seen.events += late.drain().events.map(\.event)
        let p = Self.projection(seen.events)
        return (0..<120).allSatisfy { p.operation(named: "job \($0)")?.state == .finished }
      })
  }

  @Test func aViewerAfterDroppedEventsCatchesUpWithTheProgram() throws {
    // No viewer and a small buffer: the story so far fills it and the rest is dropped.
    let probe = try Probe.startOrThrow(
      program: "probe-dropped", sampleInterval: 0.01, capacity: 50)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "late", maxConcurrent: 1)
    queue.isSuspended = true
    for i in 0..<80 {
      let op = BlockOperation {}
      op.name = "step \(i)"
      queue.addOperation(op)
    }
    #expect(probe.dropped > 0)
    let client = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
    defer { client.close() }
    let seen = Collected()
    #expect(
      eventually {
        seen.pull(client)
        let p = Self.projection(seen.events)
        // Pending, or ready if a sample saw it so (a suspended queue starts nothing).
        return (0..<80).allSatisfy {
          [.pending, .ready].contains(p.operation(named: "step \($0)")?.state)
        }
      }, "\(seen.events.count) events")
    #expect(Self.projection(seen.events).queue(named: "late")?.suspended == true)
    queue.isSuspended = false
    #expect(
      eventually {
        seen.pull(client)
        let p = Self.projection(seen.events)
        return (0..<80).allSatisfy { p.operation(named: "step \($0)")?.state == .finished }
      })
  }
}
