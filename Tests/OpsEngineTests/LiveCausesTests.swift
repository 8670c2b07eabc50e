import Foundation
import OpsEngine
import OpsEvents
import Testing

/// The live runtime publishes the same contract: causes on every state event, and the engine side's
/// warnings as events in order.
@Suite struct LiveCausesTests {
  @Test func liveEventsCarryCausesAndWarnings() throws {
    let rt = LiveRuntime()
    let log = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "q", maxConcurrent: 1, suspended: true))
    try rt.addOperation(OperationSpec(name: "a"), work: .sync { _ in }, on: "q")
    try rt.addOperation(
      OperationSpec(name: "b", dependencies: ["a"]),
      work: .sync { _ in throw CocoaError(.featureUnsupported) },
      on: "q")
    rt.perform(.resume(queue: "q"))
    #expect(rt.waitUntilFinished(timeout: 10))
    rt.perform(.cancel(operation: "a"))
    rt.flushDeliveries()
    let events = log.events
    let causes = events.compactMap { e -> StateCause? in
      if case .state("b", _, _, let c) = e.kind { c } else { nil }
    }
    #expect(causes.first == .added(queue: "q"))
    #expect(causes.contains(.dependencyFinished("a", of: 1)))
    #expect(
      causes.contains {
        if case .started(queue: "q", slot: 1, limit: 1, after: .slotFreed(by: "a")) = $0 {
          true
        } else {
          false
        }
      })
    #expect(causes.contains { if case .workThrew = $0 { true } else { false } })
    // Cancelling a finished operation: the command, the engine's refusal, then the lint's warning.
    let tail = events.suffix(3).map(\.kind.type)
    #expect(tail == ["command", "cancelTooLate", "warning"])
    #expect(events.map(\.seq) == Array(1...events.count))
  }
}
