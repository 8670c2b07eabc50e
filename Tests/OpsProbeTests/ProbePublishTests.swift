import Foundation
import OpsEngine
import OpsEvents
import Synchronization
import Testing

@testable import OpsProbe

/// `Probe.start().publish(runtime)` for LiveRuntime users: the viewer sees the runtime's events and
/// steers it when the program enabled control; without control the command is refused.
extension ProbeTests {
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    func contains(_ text: String) -> Bool { lines.withLock { $0.contains { $0.contains(text) } } }
  }

  private func publishedRuntime(control: Bool, log: Lines) throws -> (Probe, LiveRuntime) {
    let probe = try Probe.startOrThrow(
      program: "probe-live-\(control)", control: control, log: { log.add($0) })
    let runtime = LiveRuntime()
    probe.publish(runtime)
    try runtime.addQueue(QueueSpec(name: "work", maxConcurrent: 1))
    return (probe, runtime)
  }

  @Test func aPublishedLiveRuntimeIsSteeredWhenControlIsOn() throws {
    let log = Lines()
    let (probe, runtime) = try publishedRuntime(control: true, log: log)
    defer { probe.stop() }
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      eventually {
        seen.pull(client)
        if case .connected(let h) = seen.status, h.control,
          seen.has({
            $0 == .queueAdded(queue: "work", maxConcurrent: 1, suspended: false, qos: .default)
          })
        {
          return true
        }
        return false
      }, "\(seen.status)")
    #expect(seen.events.first?.seq == 1)

    #expect(client.send(.suspend(queue: "work")))
    #expect(
      seen.eventuallySees(client) { $0 == .queueSuspended(queue: "work") })
    // The runtime reported the command itself, as a key command, before its effect.
    #expect(
      seen.has {
        if case .command("suspend", "work", _, .key) = $0 { true } else { false }
      })
    #expect(log.contains("suspend work from the viewer"))
    // One stream, one sequence: the runtime's.
    #expect(seen.events.map(\.seq) == Array(1...seen.events.count))
    _ = runtime
  }

  @Test func aPublishedLiveRuntimeIsReadOnlyWithoutControl() throws {
    let log = Lines()
    let (probe, runtime) = try publishedRuntime(control: false, log: log)
    defer { probe.stop() }
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      eventually {
        seen.pull(client)
        if case .connected(let h) = seen.status { return !h.control }
        return false
      }, "\(seen.status)")
    #expect(client.send(.suspend(queue: "work")))
    // The probe says it refused (no waiting on the wall clock for something not to happen).
    #expect(eventually { log.contains("suspend refused: control is off") })
    seen.pull(client)
    #expect(!seen.has { $0 == .queueSuspended(queue: "work") })
    _ = runtime
  }
}

/// A command the program cannot carry out is reported, not silently dropped.
extension ProbeTests {
  @Test func cancellingAFinishedOrUnknownOperationIsReported() throws {
    let probe = try Probe.startOrThrow(program: "probe-late", control: true, sampleInterval: 0.01)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "quick")
    let op = BlockOperation {}
    op.name = "done soon"
    queue.addOperation(op)
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        $0
          == .state(
            operation: "done soon", from: .finishing, to: .finished, cause: .sampled)
      })
    #expect(client.send(.cancel(operation: "done soon")))
    #expect(client.send(.cancel(operation: "never was")))
    #expect(client.send(.suspend(queue: "no queue")))
    #expect(
      eventually {
        seen.pull(client)
        return seen.has { $0 == .cancelTooLate(operation: "done soon") }
          && seen.has {
            if case .refused("never was", _) = $0 { true } else { false }
          }
          && seen.has {
            if case .refused("no queue", _) = $0 { true } else { false }
          }
      })
  }
}
