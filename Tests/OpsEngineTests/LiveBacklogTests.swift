import Foundation
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// The events waiting for delivery stay bounded whichever thread produces them: workers running
/// operations already added wait for a lagging subscriber too, not only the thread adding them.
@Suite struct LiveBacklogTests {
  /// Far ahead of the work, an adding thread returns only once what it published is delivered, so
  /// the lints' fold sets the pace of adding; it never waits for operations to run (the queue here
  /// is suspended).
  @Test func anAdderFarAheadWaitsForDeliveryNotForWork() throws {
    let rt = LiveRuntime()
    try rt.addQueue(QueueSpec(name: "q", suspended: true))
    let n = LiveRuntime.farAheadAt
    for i in 0..<(n + 50) {
      try rt.addOperation(live("op\(i)"), work: .none, on: "q")
      if i >= n { #expect(rt.undeliveredEvents == 0, "op\(i) returned with events undelivered") }
    }
    #expect(rt.perform(.resume(queue: "q")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
  }

  @Test func workersWaitForALaggingSubscriber() throws {
    let rt = LiveRuntime(lints: [])
    let gate = DispatchSemaphore(value: 0)
    let blocked = Locked(false)
    rt.subscribe { _ in
      if blocked.value { gate.wait() }
    }
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 4, suspended: true))
    // 20,000 operations are about 180,000 events once they run: far beyond the bound.
    for i in 0..<20_000 { try rt.addOperation(live("op\(i)"), work: .sync { _ in }, on: "q") }
    rt.flushDeliveries()
    blocked.withLock { $0 = true }
    #expect(rt.perform(.resume(queue: "q")) == .applied)
    // Give the workers a second to run ahead of the stalled subscriber, watching the backlog.
    var most = 0
    for _ in 0..<1_000 {
      most = max(most, rt.undeliveredEvents)
      if most > 2 * LiveRuntime.backlogLimit { break }
      usleep(1_000)
    }
    // One step's events may pass the bound before its thread waits; never the whole run's.
    #expect(most <= LiveRuntime.backlogLimit + 4_096, "\(most) events waited for delivery")
    blocked.withLock { $0 = false }
    gate.signal()
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
  }
}
