import Foundation
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// An adding thread far ahead of the work sleeps until the work has caught up halfway, but never
/// waits long for work that is not moving (see `LiveRuntime.pace`).
@Suite struct LivePacingTests {
  /// While the work moves, no add returns with more than `crowdedAt` operations unfinished, unless
  /// a wait ran out first (a loaded machine). Yielding instead of waiting let the adder run on to
  /// the delivery bound (`farAheadAt`), twice as far.
  @Test func anAdderAheadOfMovingWorkWaitsForItToCatchUp() throws {
    let rt = LiveRuntime(lints: [])
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    var most = 0
    for i in 0..<(4 * LiveRuntime.crowdedAt) {
      try rt.addOperation(live("op\(i)"), work: .sync { _ in }, on: "q")
      most = max(most, rt.operationCount(of: "q"))
    }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(
      most <= LiveRuntime.crowdedAt || rt.pacingTimeouts > 0,
      "\(most) operations unfinished after an add, and no wait ran out")
  }

  /// A suspended queue costs the adder one wait, not one per operation; once operations finish
  /// again, it paces again (and waits once more for the next suspended queue).
  @Test func workThatDoesNotMoveCostsTheAdderOneWait() throws {
    let rt = LiveRuntime(lints: [])
    try rt.addQueue(QueueSpec(name: "q", suspended: true))
    try rt.addQueue(QueueSpec(name: "r", suspended: true))
    let n = LiveRuntime.crowdedAt + 1_000
    for i in 0..<n { try rt.addOperation(live("q\(i)"), work: .none, on: "q") }
    #expect(rt.pacingTimeouts == 1)
    #expect(rt.operationCount(of: "q") == n)
    #expect(rt.perform(.resume(queue: "q")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    for i in 0..<n { try rt.addOperation(live("r\(i)"), work: .none, on: "r") }
    #expect(rt.pacingTimeouts == 2)
    #expect(rt.perform(.resume(queue: "r")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
  }

  /// An operation adding to its own queue, which can run nothing else while it runs: its wait runs
  /// out and it goes on.
  @Test func workAddingBehindItselfGoesOn() throws {
    let rt = LiveRuntime(lints: [])
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    let n = LiveRuntime.crowdedAt + 500
    try rt.addOperation(
      live("parent"),
      work: .sync { _ in
        for i in 0..<n { try? rt.addOperation(live("child\(i)"), work: .none, on: "q") }
      }, on: "q")
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    #expect(rt.pacingTimeouts == 1)
    #expect(rt.state(of: "child\(n - 1)") == .finished)
  }

  /// A subscriber adding operations never paces: the work it would wait for may be waiting for
  /// its delivery.
  @Test func aSubscriberAddingDoesNotPace() throws {
    let rt = LiveRuntime(lints: [])
    try rt.addQueue(QueueSpec(name: "q", suspended: true))
    let added = Locked(false)
    let n = LiveRuntime.crowdedAt + 100
    rt.subscribe { _ in
      guard !added.value else { return }
      added.withLock { $0 = true }
      for i in 0..<n { try? rt.addOperation(live("op\(i)"), work: .none, on: "q") }
    }
    try rt.addOperation(live("first"), work: .none, on: "q")
    rt.flushDeliveries()
    #expect(rt.operationCount(of: "q") == n + 1)
    #expect(rt.pacingTimeouts == 0)
    #expect(rt.perform(.resume(queue: "q")) == .applied)
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
  }
}
