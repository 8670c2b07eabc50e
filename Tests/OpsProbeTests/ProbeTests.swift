import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsProbe

/// Waits until `condition` holds, up to `timeout` seconds (no sleep-then-assert on the wall clock).
func eventually(_ timeout: Double = 20, _ condition: () -> Bool) -> Bool {
  let end = Date().addingTimeInterval(timeout)
  while Date() < end {
    if condition() { return true }
    usleep(10_000)
  }
  return condition()
}

/// A program with a probe and observed queues, a viewer connected to it: the viewer sees the queues
/// and operations move and steers them when control is on.
@Suite(.serialized) struct ProbeTests {
  final class Collected: @unchecked Sendable {
    var events: [Event] = []
    var status: ProbeClient.Status = .connecting
    func pull(_ c: ProbeClient) {
      let m = c.drain()
      events += m.events.map(\.event)
      status = m.status
    }
    func has(_ p: (EventKind) -> Bool) -> Bool { events.contains { p($0.kind) } }
    /// Pulls from `c` until an event matching `p` has come, or `eventually`'s time runs out.
    func eventuallySees(_ c: ProbeClient, _ p: (EventKind) -> Bool) -> Bool {
      eventually {
        pull(c)
        return has(p)
      }
    }
  }

  @Test func theViewerSeesOperationsMoveAndSteersTheQueue() throws {
    let probe = try Probe.startOrThrow(program: "probe-test", control: true, sampleInterval: 0.01)
    defer { probe.stop() }
    let attrs = try FileManager.default.attributesOfItem(atPath: probe.path)
    #expect((attrs[.posixPermissions] as? Int) == 0o600)
    #expect(ProbeAddress.running().contains(probe.path))

    let queue = ObservedOperationQueue(name: "downloads", maxConcurrent: 1)
    let gate = DispatchSemaphore(value: 0)
    let first = BlockOperation { gate.wait() }
    first.name = "first"
    let second = BlockOperation {}
    second.addDependency(first)
    queue.addOperation(first)
    queue.addOperation(second)

    let client = ProbeClient(target: .socket(probe.path))
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        // Sampled: the probe saw it executing, not the slot or why (no cause is invented).
        $0 == .state(operation: "first", from: .ready, to: .executing, cause: .sampled)
      })
    #expect(
      seen.has {
        if case .operationAdded(let o, "downloads", _, _, .block, ["first"], _, _, _) = $0 {
          o == "block 1"
        } else {
          false
        }
      })

    #expect(client.send(.suspend(queue: "downloads")))
    #expect(
      seen.eventuallySees(client) { $0 == .queueSuspended(queue: "downloads") })
    #expect(queue.isSuspended)

    #expect(client.send(.cancel(operation: "block 1")))
    #expect(
      eventually {
        seen.pull(client)
        return second.isCancelled
      })
    gate.signal()
    queue.isSuspended = false
    #expect(
      seen.eventuallySees(client) {
        $0
          == .state(operation: "block 1", from: .finishing, to: .finished, cause: .sampled)
      })
    #expect(seen.has { if case .cancelled("block 1", _, _) = $0 { true } else { false } })
    // The events fold: the board's one fold sees both operations finished.
    var projection = Projection()
    for e in seen.events { projection.apply(e) }
    #expect(projection.operation(named: "first")?.state == .finished)
    #expect(projection.operation(named: "block 1")?.state == .finished)
  }

  @Test func withoutControlCommandsAreRefusedAndAnExitIsSeen() throws {
    let probe = try Probe.startOrThrow(program: "probe-ro", control: false, sampleInterval: 0.01)
    let queue = ObservedOperationQueue(name: "q")
    let client = ProbeClient(target: .socket(probe.path))
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        $0 == .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default)
      })
    if case .connected(let h) = seen.status {
      #expect(!h.control)
    } else {
      Issue.record("\(seen.status)")
    }
    #expect(client.send(.suspend(queue: "q")))
    usleep(100_000)  // give a wrongly obeyed command time to land; the assertion is that it did not
    #expect(!queue.isSuspended)
    probe.stop()
    #expect(
      eventually {
        seen.pull(client)
        return seen.status == .ended
      })
  }

  @Test func aHostileStreamIsAClearError() throws {
    let path = ProbeAddress.directory + "/hostile-\(getpid()).sock"
    _ = try ProbeAddress.privateDirectory()
    let listener = try UnixSocket.listen(at: path)
    defer {
      close(listener)
      unlink(path)
    }
    Thread.detachNewThread {
      let fd = accept(listener, nil, nil)
      _ = UnixSocket.write(fd, Array("GET / HTTP/1.1\n".utf8))
      sleep(5)
      close(fd)
    }
    let client = ProbeClient(target: .socket(path))
    let seen = Collected()
    #expect(
      eventually {
        seen.pull(client)
        if case .failed = seen.status { return true } else { return false }
      })
    if case .failed(let why) = seen.status { #expect(why.contains("not an opsview probe")) }
  }
}

extension Probe {
  /// `Probe.start` that throws why it could not start (programs get nil and a report instead).
  static func startOrThrow(
    program: String = ProcessInfo.processInfo.processName, control: Bool = false,
    sampleInterval: Double = 0.05, capacity: Int = 200_000, transport: Transport = .unixSocket,
    limits: ProbeServer.Limits = ProbeServer.Limits(),
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws -> Probe {
    try open(
      program: program, control: control, sampleInterval: sampleInterval, capacity: capacity,
      transport: transport, limits: limits, log: log)
  }
}
