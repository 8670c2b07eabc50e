import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The projection's ready lists (what a start can overtake) equal a scan of the operations after
/// every event, and every record knows its place in its list. One started while ready, asking again
/// for a lock (X10), has left the list.
@Suite struct ProjectionReadyTests {
  @Test func readyListsEqualAScanAfterEveryEvent() async {
    await afterEveryEventOfRandomWorkloads { p, event, ops, scenario in
      for (q, queue) in p.queues.enumerated() {
        for level in 0..<5 {
          let listed = queue.readyByPriority[level]
          let scanned = ops.filter {
            $0.queueIndex == q && $0.state == .ready && !$0.reclaiming
              && $0.priority.level == level
          }.map(\.index)
          #expect(Set(listed) == Set(scanned), "after \(event.jsonLine)\n\(scenario)")
          #expect(listed.count == scanned.count)
          for (slot, i) in listed.enumerated() { #expect(ops[i].readySlot == slot) }
        }
      }
      #expect(ops.allSatisfy { ($0.state == .ready && !$0.reclaiming) == ($0.readySlot >= 0) })
    }
  }
}
