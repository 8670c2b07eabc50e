import Foundation
import OpsEngine
import OpsEvents
import Testing

/// Every number a library caller passes is either refused with `EngineError.invalidNumber` or has a
/// defined meaning; none can trap (they used to: "Double value cannot be converted to Int64").
@Suite struct NumberInputTests {
  @Test func negativeConcurrencyIsRefusedByBothRuntimes() throws {
    let refused = EngineError.invalidNumber(
      "maxConcurrent of queue 'q' is -1: it must be 0 or more (nil for no limit)")
    #expect(throws: refused) {
      try VirtualRuntime().addQueue(QueueSpec(name: "q", maxConcurrent: -1))
    }
    #expect(throws: refused) { try LiveRuntime().addQueue(QueueSpec(name: "q", maxConcurrent: -1)) }
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1))
    #expect(rt.perform(.setMaxConcurrent(queue: "q", value: -3)) != .applied)
  }

  @Test(arguments: [-1.0, .nan, .infinity, 1e300])
  func unusableSecondsInASpecAreRefused(_ value: Double) throws {
    let specs = [
      OperationSpec(name: "a", work: WorkScript(duration: value)),
      OperationSpec(name: "a", work: WorkScript(checkEvery: value)),
      OperationSpec(name: "a", timeout: value),
      OperationSpec(name: "a", work: WorkScript(blocks: [1, value])),
    ]
    for spec in specs {
      #expect(throws: EngineError.self) { try VirtualRuntime().addOperation(spec) }
      #expect(throws: EngineError.self) {
        try LiveRuntime().addOperation(spec, work: .none, on: nil)
      }
    }
  }

  @Test func hugeAndNonFiniteTimesOnTheVirtualClockSaturate() throws {
    let rt = VirtualRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(OperationSpec(name: "a", work: WorkScript(duration: 5)))
    rt.schedule(.suspend(queue: "q"), at: .nan)
    rt.schedule(.resume(queue: "q"), at: 1e300)
    rt.schedule(.resume(queue: "q"), at: -.infinity)
    try rt.enqueue("a", on: "q", at: .infinity)
    // Far past Int64 microseconds if the clock did not saturate.
    for _ in 0..<20_000 { rt.advance(by: 1e13) }
    rt.advance(by: .infinity)
    rt.advance(by: .nan)
    rt.advance(by: -1)
    rt.run(until: .infinity)
    rt.run(until: .nan)
    rt.run()
    #expect(rt.now > 0 && rt.now.isFinite)
  }

  @Test func waitingWithAHugeOrNonsenseTimeoutDoesNotTrap() throws {
    let rt = LiveRuntime()
    try rt.addQueue(QueueSpec(name: "q"))
    try rt.addOperation(
      OperationSpec(name: "a"), work: .sync { _ in Thread.sleep(forTimeInterval: 0.05) }, on: "q")
    #expect(rt.waitUntilFinished(timeout: .nan) == false || rt.state(of: "a") == .finished)
    #expect(rt.waitUntilFinished(timeout: -5) == false || rt.state(of: "a") == .finished)
    #expect(rt.waitUntilFinished(timeout: 1e300))
    #expect(rt.waitUntilFinished(timeout: .infinity))
    #expect(rt.waitUntilFinished(["a"], timeout: 1e300))
  }
}
