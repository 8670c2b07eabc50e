import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsProbe

/// A fake probe that sends `bytes` to the first viewer and keeps the connection open a while (so a
/// failure the viewer reports is its own reading, not the peer closing).
final class FakeProbe: Sendable {
  let path: String
  private let listener: Int32

  init(_ bytes: [UInt8]) throws {
    // Named as a probe of this (live) process: `opsview attach` removes sockets of dead pids.
    path = ProbeAddress.directory + "/fake\(UUID().uuidString.prefix(6))-\(getpid()).sock"
    _ = try ProbeAddress.privateDirectory()
    listener = try UnixSocket.listen(at: path)
    let listener = listener
    Thread.detachNewThread {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else { return }
      _ = UnixSocket.write(fd, bytes)
      sleep(5)
      close(fd)
    }
  }

  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    unlink(path)
  }

  static let header = Array(
    (ProbeWire.headerLine(.init(program: "fake", pid: 1, control: true, sampleInterval: 0.05))
      + "\n").utf8)
  /// A sound start: queue q, operation a added and pending (three events).
  static let soundStart: [Event] = [
    Event(
      seq: 1, time: 0,
      kind: .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default)),
    Event(
      seq: 2, time: 0,
      kind: .operationAdded(
        operation: "a", queue: "q", priority: .normal, qos: .default, kind: .plain,
        dependencies: [], conditions: [], exclusivity: [], work: nil)),
    Event(
      seq: 3, time: 0,
      kind: .state(operation: "a", from: .initialized, to: .pending, cause: .added(queue: "q"))),
  ]

  static func lines(_ events: [Event]) -> [UInt8] {
    Array(events.map { $0.jsonLine + "\n" }.joined().utf8)
  }

  static let firstEvent = Array(
    (Event(
      seq: 1, time: 0,
      kind: .queueAdded(queue: "q", maxConcurrent: nil, suspended: false, qos: .default)
    )
    .jsonLine + "\n").utf8)
}

extension ProbeTests {
  /// A flood of sound events: the viewer keeps the run up to its bound and counts the rest.
  @Test func aFloodIsKeptUpToTheBoundAndTheRestCounted() throws {
    var events = FakeProbe.soundStart
    for i in 0..<200 {
      events.append(Event(seq: 4 + i, time: Double(i), kind: .queueSuspended(queue: "q")))
    }
    let fake = try FakeProbe(FakeProbe.header + FakeProbe.lines(events))
    defer { fake.stop() }
    let client = ProbeClient(target: .socket(fake.path), maxEvents: 50)
    defer { client.close() }
    var kept = 0
    var notKept = 0
    #expect(
      eventually {
        let mail = client.drain()
        kept += mail.events.count
        notKept = mail.notKept
        return notKept == events.count - 50
      }, "kept \(kept), not kept \(notKept)")
    #expect(kept == 50)
  }

  static let hostile: [(String, [UInt8], String)] = [
    (
      "garbage after the header",
      FakeProbe.header + FakeProbe.firstEvent + Array("\u{0}\u{ff}garbage\n".utf8),
      "line 3 carries a control character (byte 0)"
    ),
    (
      "control characters", FakeProbe.header + Array("\u{1b}[2J\u{1b}]0;owned\u{7}\n".utf8),
      "line 2 carries a control character (byte 27)"
    ),
    ("a huge line", FakeProbe.header + [UInt8](repeating: 65, count: 3 << 20), "longer than 1 MiB"),
    ("a huge first line", [UInt8](repeating: 123, count: 3 << 20), "longer than 1 MiB"),
    (
      // A gap is events the probe dropped (it says how many); a seq that goes back is no probe's.
      "events out of order",
      FakeProbe.header
        + Array((Event(seq: 7, time: 0, kind: .queueSuspended(queue: "q")).jsonLine + "\n").utf8)
        + Array((Event(seq: 3, time: 0, kind: .queueResumed(queue: "q")).jsonLine + "\n").utf8),
      "out of order"
    ),
    ("not JSON", FakeProbe.header + Array("not json {\n".utf8), "line 2 is not an event"),
    (
      "an escaped control character in a name",
      FakeProbe.header
        + Array(
          (Event(
            seq: 1, time: 0,
            kind: .queueAdded(
              queue: "\u{1b}[2J", maxConcurrent: nil, suspended: false, qos: .default)
          ).jsonLine + "\n").utf8),
      "carries a control character"
    ),
    (
      // The board folded it: a queue's count of pending operations went negative and it crashed.
      "a transition repeated",
      FakeProbe.header
        + FakeProbe.lines(
          FakeProbe.soundStart + [
            Event(
              seq: 4, time: 0,
              kind: .state(
                operation: "a", from: .initialized, to: .pending, cause: .added(queue: "q")))
          ]),
      "line 5, event 4: 'a' moves from initialized to pending, but it is pending"
    ),
    (
      "a state going back",
      FakeProbe.header
        + FakeProbe.lines(
          FakeProbe.soundStart + [
            Event(
              seq: 4, time: 0,
              kind: .state(
                operation: "a", from: .pending, to: .initialized, cause: .added(queue: "q")))
          ]),
      "'a' cannot move from pending to initialized"
    ),
    (
      "an unknown operation",
      FakeProbe.header
        + FakeProbe.lines(
          FakeProbe.soundStart + [Event(seq: 4, time: 0, kind: .didStart(operation: "ghost"))]),
      "operation 'ghost' was never added"
    ),
    (
      "a time past the end of the clock",
      FakeProbe.header
        + FakeProbe.lines(
          FakeProbe.soundStart + [Event(seq: 4, time: 1e17, kind: .didStart(operation: "a"))]),
      "past the end of the clock"
    ),
    (
      // Names of a megabyte each grew the viewer to gigabytes.
      "a name of almost a megabyte",
      FakeProbe.header
        + FakeProbe.lines([
          Event(
            seq: 1, time: 0,
            kind: .queueAdded(
              queue: String(repeating: "q", count: 1_000_000), maxConcurrent: nil,
              suspended: false, qos: .default))
        ]),
      "a queue name of 1000000 bytes: at most 256"
    ),
    (
      "a header from the future",
      Array("{\"format\":\"opsview-probe\",\"version\":99,\"pid\":99999999999999}\n".utf8),
      "version 99"
    ),
  ]

  @Test(arguments: 0..<hostile.count)
  func aHostileStreamEndsWithAClearMessage(_ index: Int) throws {
    let (what, bytes, expected) = Self.hostile[index]
    let fake = try FakeProbe(bytes)
    defer { fake.stop() }
    let client = ProbeClient(target: .socket(fake.path))
    defer { client.close() }
    var status = ProbeClient.Status.connecting
    #expect(
      eventually {
        status = client.drain().status
        if case .failed = status { return true } else { return false }
      }, "\(what): \(status)")
    guard case .failed(let why) = status else { return }
    #expect(why.contains(expected), "\(what): \(why)")
    #expect(
      !why.unicodeScalars.contains { $0.properties.generalCategory == .control },
      "\(what): the message carries control characters")
  }
}
