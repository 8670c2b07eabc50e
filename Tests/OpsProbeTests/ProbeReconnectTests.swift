import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsProbe

/// A viewer that follows a program by name sees it exit and then sees its next run, as a new story.
extension ProbeTests {
  @Test func theViewerFollowsAProgramThatStartsAgain() throws {
    let name = "probe-again-\(getpid())"
    var probe = try Probe.startOrThrow(program: name, sampleInterval: 0.01)
    _ = ObservedOperationQueue(name: "first-run")
    let client = ProbeClient(target: .name(name), retryInterval: 0.02)
    defer { client.close() }
    var received: [ProbeClient.Received] = []
    var status = ProbeClient.Status.connecting
    func pull() {
      let mail = client.drain()
      received += mail.events
      status = mail.status
    }
    #expect(
      eventually {
        pull()
        return received.contains { $0.run == 1 && $0.event.kind.isQueueAdded("first-run") }
      })

    probe.stop()
    // A probe that stops says so after its last sample: the viewer shows the program ended.
    #expect(
      eventually {
        pull()
        return status == .ended
      }, "\(status)")

    // The program starts again (here: a new probe in the same process, a new story all the same).
    probe = try Probe.startOrThrow(program: name, sampleInterval: 0.01)
    defer { probe.stop() }
    _ = ObservedOperationQueue(name: "second-run")
    #expect(
      eventually {
        pull()
        return received.contains { $0.run == 2 && $0.event.kind.isQueueAdded("second-run") }
      }, "\(status)")
    guard case .connected = status else {
      Issue.record("\(status)")
      return
    }
    // The new run is told from its own start: its first event is seq 1 again.
    #expect(received.first { $0.run == 2 }?.event.seq == 1)
    #expect(!received.contains { $0.run == 2 && $0.event.kind.isQueueAdded("first-run") })
  }
}

extension EventKind {
  func isQueueAdded(_ name: String) -> Bool {
    if case .queueAdded(name, _, _, _) = self { true } else { false }
  }
}
