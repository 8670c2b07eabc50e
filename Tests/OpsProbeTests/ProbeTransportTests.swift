import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsProbe

/// Loopback TCP on request, and the refusal of anything that is not loopback.
extension ProbeTests {
  @Test func aProbeOnLoopbackTCPIsSeenAtItsPort() throws {
    let probe = try Probe.startOrThrow(
      program: "probe-tcp", sampleInterval: 0.01, transport: .tcp(port: 0))
    defer { probe.stop() }
    #expect(probe.path.hasPrefix("127.0.0.1:"))
    let target = try ProbeTarget.parse(probe.path)
    guard case .tcp("127.0.0.1", let port) = target else {
      Issue.record("parsed as \(target)")
      return
    }
    #expect(port > 0)
    _ = ObservedOperationQueue(name: "over-tcp")
    // Listed with the sockets, and found by its name.
    #expect(ProbeAddress.running().contains(probe.path))
    #expect(ProbeAddress.running(named: "probe-tcp") == [probe.path])
    let client = ProbeClient(target: .name("probe-tcp"))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        $0 == .queueAdded(queue: "over-tcp", maxConcurrent: nil, suspended: false, qos: .default)
      })
    probe.stop()
    #expect(!ProbeAddress.running().contains(probe.path))
  }

  @Test(arguments: ["0.0.0.0", "192.168.1.20", "10.0.0.1", "example.com", "::"])
  func aProbeRefusesToListenBeyondLoopback(host: String) {
    #expect {
      try Probe.startOrThrow(program: "probe-wide", transport: .tcp(port: 0, host: host))
    } throws: { error in
      "\(error)".contains("refusing to listen on \(host)")
    }
    #expect(Probe.current == nil)
  }

  @Test(arguments: ["0.0.0.0:7070", "192.168.1.20:7070", "example.com:80", "[::]:7070"])
  func theViewerRefusesANonLoopbackAddress(address: String) {
    #expect {
      try ProbeTarget.parse(address)
    } throws: { error in
      "\(error)".contains("refusing to connect to") && "\(error)".contains("loopback only")
    }
  }

  @Test func addressesAreReadAsSocketsNamesOrLoopbackPorts() throws {
    #expect(
      try ProbeTarget.parse("/run/user/1/opsview/photos-12.sock")
        == .socket("/run/user/1/opsview/photos-12.sock"))
    #expect(try ProbeTarget.parse("photos") == .name("photos"))
    #expect(try ProbeTarget.parse("localhost:7070") == .tcp(host: "localhost", port: 7070))
    #expect(try ProbeTarget.parse("[::1]:7070") == .tcp(host: "::1", port: 7070))
    #expect(ProbeTarget.socket("/tmp/x/photos-12.sock").programName == "photos")
    #expect(throws: ProbeError.self) { try ProbeTarget.parse("127.0.0.1:99999") }
    #expect(throws: ProbeError.self) { try ProbeTarget.parse("bad\u{1b}[2Jname") }
    do {
      _ = try ProbeTarget.parse("bad\u{1b}[2Jname")
    } catch {
      #expect(!error.description.contains("\u{1b}"))
    }
  }

  @Test func namesWithControlCharactersAreReportedPrintable() throws {
    let probe = try Probe.startOrThrow(program: "probe-names", sampleInterval: 0.01)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "evil\u{1b}[2J")
    queue.isSuspended = true
    let op = BlockOperation {}
    op.name = "line\nbreak"
    queue.addOperation(op)
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        if case .operationAdded("line?break", "evil?[2J", _, _, _, _, _, _, _) = $0 {
          true
        } else {
          false
        }
      }, "\(seen.status)")
    queue.isSuspended = false
  }
}

/// The program never waits for a viewer: beyond the buffer's capacity events are dropped, counted,
/// and the count reaches the viewer, who is caught up with what the dropped events did.
extension ProbeTests {
  @Test func eventsBeyondTheBufferAreDroppedAndCounted() throws {
    // No sampling (its first sample comes before the queue): only the adds, counted exactly.
    let probe = try Probe.startOrThrow(program: "probe-drops", sampleInterval: 3600, capacity: 5)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "busy")
    queue.isSuspended = true  // nothing runs: only the adds are reported, two events each
    for i in 0..<10 {
      let op = BlockOperation {}
      op.name = "op\(i)"
      queue.addOperation(op)
    }
    // The queue, its suspension and 20 operation events, 5 kept: the adds returned without a viewer.
    #expect(probe.dropped == 17)
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    var events: [Event] = []
    var dropped = 0
    #expect(
      eventually {
        let mail = client.drain()
        events += mail.events.map(\.event)
        dropped = mail.dropped
        var p = Projection()
        for e in events { p.apply(e) }
        return dropped == probe.dropped
          && (0..<10).allSatisfy { p.operation(named: "op\($0)")?.state == .pending }
      }, "\(events.count) events, \(dropped) dropped")
    // The five kept as they were sent, then the rest caught up with.
    #expect(events.prefix(5).map(\.seq) == [1, 2, 3, 4, 5])
    queue.cancelAllOperations()
    queue.isSuspended = false
  }

  /// A program may name two operations (or queues) alike; the viewer refuses a stream that adds a
  /// name twice, so the probe reports the second as `name #2` and the dependency by that name.
  @Test func namesAProgramRepeatsAreReportedUniquely() throws {
    let probe = try #require(Probe.start(program: "probe-same-names", sampleInterval: 0.01))
    defer { probe.stop() }
    let one = ObservedOperationQueue(name: "work")
    let two = ObservedOperationQueue(name: "work")
    one.isSuspended = true
    two.isSuspended = true
    let first = BlockOperation {}
    first.name = "job"
    let second = BlockOperation {}
    second.name = "job"
    second.addDependency(first)
    let unnamed = BlockOperation {}
    unnamed.name = String(repeating: "x", count: 100_000) + "\u{202E}"
    one.addOperation(first)
    two.addOperation(second)
    one.addOperation(unnamed)
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    one.isSuspended = false
    two.isSuspended = false
    #expect(
      seen.eventuallySees(client) {
        if case .state("job #2", .executing, .finishing, _) = $0 { true } else { false }
      }, "\(seen.status)")
    #expect(
      seen.has {
        if case .operationAdded("job #2", "work #2", _, _, _, ["job"], _, _, _) = $0 {
          true
        } else {
          false
        }
      })
    #expect(
      seen.has {
        if case .operationAdded(let name, "work", _, _, _, _, _, _, _) = $0 {
          name.hasSuffix("x…") && name.utf8.count <= 256
        } else {
          false
        }
      })
    if case .failed(let why) = seen.status { Issue.record("the stream was refused: \(why)") }
  }
}
