import Foundation
import OpsEngine
import OpsEvents
import OpsInput
import OpsTestSupport
import Testing

@testable import OpsProbe

#if canImport(Glibc)
  import Glibc
#endif

/// What the probe must never let a viewer do to the program, and what it must never claim.
extension ProbeTests {
  @Test func commandsAreValidatedFieldByFieldBeforeAnyQueueIsTouched() {
    func refused(_ line: String) -> String? {
      if case .failure(let r) = ProbeWire.request(Array(line.utf8)) { return r.reason }
      return nil
    }
    // Before: -7 reached the queue (Foundation's fatal error), a missing or string value removed
    // the limit.
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads","value":-7}"#) != nil)
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads"}"#) != nil)
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads","value":"3"}"#) != nil)
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads","value":true}"#) != nil)
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads","value":2.5}"#) != nil)
    #expect(refused(#"{"command":"maxConcurrent","target":"downloads","value":1e12}"#) != nil)
    #expect(refused(#"{"command":"suspend","target":"a\u001b]0;PWNED\u0007"}"#) != nil)
    #expect(refused(#"{"command":"suspend","target":"c1\u009b2J"}"#) != nil)
    #expect(refused(#"{"command":"suspend","target":""}"#) != nil)
    #expect(refused(#"{"command":"suspend","target":7}"#) != nil)
    #expect(
      refused(#"{"command":"suspend","target":"\#(String(repeating: "x", count: 300))"}"#) != nil)
    #expect(refused(#"{"command":"explode","target":"downloads"}"#) != nil)
    #expect(refused(#"{"command":"cancelAll","target":"q","operations":["ok","\u001b"]}"#) != nil)
    // What every viewer's reader refuses in a name: echoed back in a refusal, it would stop them.
    for target in [#"downloads\u200b"#, #"a\u202eb"#, " downloads", #"a\u2028b"#] {
      let why = refused(#"{"command":"suspend","target":"\#(target)"}"#)
      #expect(why != nil, "\(target)")
      #expect(
        why?.unicodeScalars.allSatisfy { TextPolicy.nameProblem(String($0)) == nil || $0 == " " }
          == true)
      let named = refused(#"{"command":"cancelAll","target":"q","operations":["\#(target)"]}"#)
      #expect(named != nil, "\(target)")
    }
    // The reasons themselves carry no control character.
    let why = refused(#"{"command":"explode\u001b[2J","target":"downloads"}"#) ?? ""
    #expect(!why.unicodeScalars.contains { ControlCharacters.isControl($0.value) }, "\(why)")
    // Valid ones pass with their values.
    #expect(
      ProbeWire.command(Array(#"{"command":"maxConcurrent","target":"d","value":3}"#.utf8))
        == .setMaxConcurrent(queue: "d", value: 3))
    #expect(
      ProbeWire.command(Array(#"{"command":"maxConcurrent","target":"d","value":null}"#.utf8))
        == .setMaxConcurrent(queue: "d", value: nil))
    #expect(
      ProbeWire.command(Array(#"{"command":"maxConcurrent","target":"d","value":0}"#.utf8))
        == .setMaxConcurrent(queue: "d", value: 0))
  }

  @Test func aViewerThatKeepsUpSeesEverythingWhateverTheBuffer() throws {
    // The buffer must not hold the whole history: a run longer than it would drop everything after
    // it even with a viewer taking every event.
    let probe = try Probe.startOrThrow(
      program: "probe-backlog", sampleInterval: 3600, capacity: 1_000)
    defer { probe.stop() }
    let client = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
    defer { client.close() }
    var received: [Event] = []
    #expect(
      eventually {
        // One drain: its events are kept and its status read, so nothing taken is lost.
        let taken = client.drain()
        received += taken.events.map(\.event)
        if case .connected = taken.status { return true }
        return false
      })
    let queue = ObservedOperationQueue(name: "steady")
    queue.isSuspended = true
    var published = 2
    for round in 0..<50 {
      for i in 0..<100 {
        let op = BlockOperation {}
        op.name = "op\(round)-\(i)"
        queue.addOperation(op)
      }
      published += 200
      // The viewer keeps up: it takes what was sent before more comes.
      #expect(
        eventually {
          received += client.drain().events.map(\.event)
          return received.count >= published
        }, "round \(round): \(received.count) of \(published)")
    }
    #expect(probe.dropped == 0)
    #expect(received.map(\.seq) == Array(1...received.count))
    queue.cancelAllOperations()
    queue.isSuspended = false
  }

  @Test func aViewerThatComesAfterEventsWereLetGoIsSentASnapshot() throws {
    let probe = try Probe.startOrThrow(
      program: "probe-late-viewer", sampleInterval: 3600, capacity: 100)
    defer { probe.stop() }
    let first = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
    defer { first.close() }
    var taken = 0
    #expect(
      eventually {
        if case .connected = first.drain().status { return true } else { return false }
      })
    let queue = ObservedOperationQueue(name: "early")
    queue.isSuspended = true
    for i in 0..<150 {
      let op = BlockOperation {}
      op.name = "early \(i)"
      queue.addOperation(op)
      if i % 20 == 19 {
        #expect(
          eventually {
            taken += first.drain().events.count
            return taken >= 2 * i + 2
          })
      }
    }
    #expect(
      eventually {
        taken += first.drain().events.count
        return taken == 302
      })
    #expect(probe.dropped == 0)
    // The first viewer took them all and the buffer let the oldest go: a second viewer is sent a
    // snapshot of where the program is (the queue, suspended, and its 150 pending operations), in
    // events of the contract numbered from 1, then the live events after the snapshot's seq.
    let late = try RawViewer(unix: probe.path)
    _ = try ProbeWire.header(Array((late.line() ?? "").utf8))
    let marker = late.line() ?? ""
    let o = try JSONSerialization.jsonObject(with: Data(marker.utf8)) as? [String: Any]
    let at = o?["snapshot"] as? Int ?? 0
    #expect(at == 302, "\(marker)")
    #expect(o?["events"] as? Int == 1 + 150 * 2, "\(marker)")
    let queueAdded = late.line() ?? ""
    #expect(queueAdded.hasPrefix(#"{"seq":1,"#) && queueAdded.contains(#""queue":"early""#))
    #expect(queueAdded.contains(#""suspended":true"#), "\(queueAdded)")
    var snapshot: [String] = []
    for _ in 0..<300 { snapshot.append(late.line() ?? "") }
    #expect(snapshot.filter { $0.contains(#""type":"operationAdded""#) }.count == 150)
    #expect(snapshot.filter { $0.contains(#""sampled""#) }.count == 150)
    queue.isSuspended = true  // reported again: the late viewer sees it after the snapshot
    let next = late.line() ?? ""
    let seq = next.split(separator: ",").first.flatMap { Int($0.dropFirst(7)) } ?? 0
    #expect(seq == at + 1, "\(next)")
    queue.cancelAllOperations()
    queue.isSuspended = false
  }

  @Test func aViewerThatNeverReadsCostsBoundedMemory() throws {
    let limits = ProbeServer.Limits(outgoing: 64 << 10)
    let probe = try Probe.startOrThrow(
      program: "probe-stalled", sampleInterval: 3600, capacity: 400_000, limits: limits)
    defer { probe.stop() }
    let stalled = try RawViewer(unix: probe.path)
    #expect(stalled.line() != nil)  // the header; then it reads nothing more
    let queue = ObservedOperationQueue(name: "busy")
    queue.isSuspended = true
    for i in 0..<40_000 {
      let op = BlockOperation {}
      op.name = "stalled op \(i)"
      queue.addOperation(op)
    }
    // The loop encodes for that viewer only while its outgoing bytes are under the bound.
    #expect(eventually { (probe.serverStatistics?.largestOutgoing ?? 0) > 0 })
    usleep(200_000)
    let largest = probe.serverStatistics?.largestOutgoing ?? .max
    #expect(largest < limits.outgoing + 512 * 1024, "\(largest) bytes waiting for one viewer")
    queue.cancelAllOperations()
    queue.isSuspended = false
  }

  @Test func viewersAreBoundedAndTheNextOnesAreToldWhy() throws {
    let probe = try Probe.startOrThrow(
      program: "probe-crowd", sampleInterval: 3600, limits: ProbeServer.Limits(viewers: 3))
    defer { probe.stop() }
    var viewers: [RawViewer] = []
    var headers: [String] = []
    for _ in 0..<6 {
      let v = try RawViewer(unix: probe.path)
      viewers.append(v)
      headers.append(v.line() ?? "")
    }
    #expect(
      headers.prefix(3).allSatisfy { $0.contains("opsview-probe") && !$0.contains("refused") })
    #expect(headers.suffix(3).allSatisfy { $0.contains("\"refused\"") }, "\(headers)")
    // A refused viewer's client stops with the reason.
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    var status = ProbeClient.Status.connecting
    #expect(
      eventually {
        status = client.drain().status
        if case .refused = status { return true } else { return false }
      }, "\(status)")
    if case .refused(let why) = status { #expect(why.contains("viewers are attached already")) }
    // One leaves: the next is served.
    viewers.removeFirst()
    #expect(
      eventually {
        let v = try? RawViewer(unix: probe.path)
        return v?.line()?.contains("refused") == false
      })
  }

  @Test func anAcceptThatFailsForLackOfDescriptorsIsTriedAgain() throws {
    // Before: the accept loop returned on the first failure, and every later viewer waited forever.
    let probe = try Probe.startOrThrow(
      program: "probe-emfile", sampleInterval: 3600,
      limits: ProbeServer.Limits(simulatedAcceptFailures: 3))
    defer { probe.stop() }
    let viewer = try RawViewer(unix: probe.path)
    #expect(viewer.line()?.contains("opsview-probe") == true)
    #expect(probe.serverStatistics?.acceptFailures == 3)
  }

  @Test func floodsAreRateLimitedAndRefusalsCoalesced() throws {
    let log = Lines()
    let probe = try Probe.startOrThrow(
      program: "probe-flood", control: true, sampleInterval: 3600, log: { log.add($0) })
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "target")
    let v = try RawViewer(unix: probe.path)
    #expect(v.line() != nil)
    let started = Date()
    var text = ""
    for _ in 0..<5_000 { text += #"{"command":"resume","target":"target"}"# + "\n" }
    for _ in 0..<5_000 {
      text += #"{"command":"maxConcurrent","target":"target","value":-7}"# + "\n"
    }
    _ = UnixSocket.write(v.fd, Array(text.utf8))
    #expect(eventually { (probe.serverStatistics?.rateLimited ?? 0) > 0 })
    #expect(eventually { log.contains("commands ignored: over the rate limit") })
    let seconds = Date().timeIntervalSince(started) + 1
    let lines = log.lines.withLock { $0.count }
    // Before: 10,000 lines. Now: the burst, 20 a second after it, a refusal report a second.
    #expect(Double(lines) <= 40 + 21 * seconds + seconds + 2, "\(lines) lines in \(seconds)s")
    #expect(queue.maxConcurrentOperationCount == OperationQueue.defaultMaxConcurrentOperationCount)
  }

  /// A confirmed cancelAll naming many unknown operations is one refusal, in the log and in the
  /// stream, not one per name.
  @Test func oneCommandsRefusalsAreOneLineAndOneEvent() throws {
    let log = Lines()
    let probe = try Probe.startOrThrow(
      program: "probe-named-flood", control: true, sampleInterval: 3600, log: { log.add($0) })
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "target")
    defer { withExtendedLifetime(queue) {} }
    let v = try RawViewer(unix: probe.path)
    #expect(v.line() != nil)
    let names = (0..<1_000).map { "\"ghost\($0)\"" }.joined(separator: ",")
    v.send(#"{"command":"cancelAll","target":"target","operations":["# + names + "]}\n")
    #expect(eventually { log.contains("refused alike") })
    #expect(log.lines.withLock { $0.filter { $0.contains("refused") }.count } == 1)
    #expect(
      log.contains(
        "ghost0 refused: the program has no observed operation of that name (and 999 more named, refused alike)"
      ))
    var refusals = 0
    let deadline = Date().addingTimeInterval(2)
    while Date() < deadline, let line = v.line(timeout: 0.2) {
      if line.contains("\"refused\"") { refusals += 1 }
    }
    #expect(refusals == 1)
  }

  @Test func reconnectingBuysNoMoreCommands() throws {
    let log = Lines()
    let probe = try Probe.startOrThrow(
      program: "probe-reconnects", control: true, sampleInterval: 3600, log: { log.add($0) })
    defer { probe.stop() }
    _ = ObservedOperationQueue(name: "target")
    let started = Date()
    // Each new connection has a fresh burst of its own; all of them share one budget.
    for _ in 0..<30 {
      let v = try RawViewer(unix: probe.path)
      #expect(v.line() != nil)
      v.send(String(repeating: #"{"command":"resume","target":"target"}"# + "\n", count: 40))
      #expect(eventually { (probe.serverStatistics?.viewers ?? 0) >= 1 })
    }
    #expect(eventually { log.contains("commands ignored: over the rate limit") })
    let seconds = Date().timeIntervalSince(started) + 1
    let applied = log.lines.withLock { $0.filter { $0.hasSuffix("from the viewer") }.count }
    // Before (per connection only): all 1,200 applied.
    #expect(Double(applied) <= 80 + 50 * seconds, "\(applied) applied in \(seconds)s")
  }

  @Test func distinctQueuesOfOneNameAreDistinctAndSteeredApart() throws {
    let probe = try Probe.startOrThrow(program: "probe-twins", control: true, sampleInterval: 3600)
    defer { probe.stop() }
    let first = ObservedOperationQueue(name: "inner")
    let second = ObservedOperationQueue(name: "inner")
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      eventually {
        seen.pull(client)
        return seen.has { $0.isQueueAdded("inner") } && seen.has { $0.isQueueAdded("inner #2") }
      })
    #expect(client.send(.suspend(queue: "inner #2")))
    #expect(eventually { second.isSuspended })
    #expect(!first.isSuspended)
    // Two operations of one name are two operations too.
    let a = BlockOperation {}
    a.name = "step"
    let b = BlockOperation {}
    b.name = "step"
    b.addDependency(a)
    second.addOperation(a)
    second.addOperation(b)
    #expect(
      seen.eventuallySees(client) {
        if case .operationAdded("step #2", "inner #2", _, _, _, ["step"], _, _, _) = $0 {
          true
        } else {
          false
        }
      })
    second.cancelAllOperations()
    second.isSuspended = false
  }

  @Test func aSampleNeverShowsMoreExecutingThanTheLimitNorInventsACause() throws {
    // The sampler is driven by hand (its own thread samples once an hour).
    let probe = try Probe.startOrThrow(program: "probe-slots", sampleInterval: 3600)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "one", maxConcurrent: 1)
    let gates = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let started = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    // Added in the order that made the old sampler start the second before ending the first.
    let second = BlockOperation {
      started.1.signal()
      gates.1.wait()
    }
    second.name = "second"
    let first = BlockOperation {
      started.0.signal()
      gates.0.wait()
    }
    first.name = "first"
    second.addDependency(first)
    queue.addOperation(second)
    queue.addOperation(first)
    started.0.wait()
    probe.registry.sample(probe)
    gates.0.signal()
    started.1.wait()
    #expect(eventually { first.isFinished })
    probe.registry.sample(probe)
    gates.1.signal()
    #expect(eventually { second.isFinished })
    probe.registry.sample(probe)

    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) {
        $0 == .state(operation: "second", from: .finishing, to: .finished, cause: .sampled)
      })
    var projection = Projection()
    for e in seen.events {
      projection.apply(e)
      let executing = projection.operations.filter { $0.queue == "one" && $0.state == .executing }
      #expect(executing.count <= 1, "after event \(e.seq): \(executing.map(\.name))")
      if case .state(_, _, _, let cause) = e.kind, e.kind.isSampledStep {
        #expect(cause == .sampled)
      }
    }
  }

  @Test func stopTakesALastSampleAndSaysEnded() throws {
    let probe = try Probe.startOrThrow(program: "probe-end", sampleInterval: 3600)
    let queue = ObservedOperationQueue(name: "last")
    let client = ProbeClient(target: .socket(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) { $0.isQueueAdded("last") })
    let op = BlockOperation {}
    op.name = "the end"
    queue.addOperation(op)
    #expect(eventually { op.isFinished })
    // Before: nothing sampled it finished (the sampler sleeps an hour) and the board kept it.
    probe.stop()
    #expect(
      eventually {
        seen.pull(client)
        return seen.status == .ended
      }, "\(seen.status)")
    #expect(
      seen.has {
        $0 == .state(operation: "the end", from: .finishing, to: .finished, cause: .sampled)
      })
  }

  @Test func aCancelOfAFinishedOperationIsTooLateAndANamedCancelAllSparesTheNextBatch() throws {
    let probe = try Probe.startOrThrow(program: "probe-named", control: true, sampleInterval: 3600)
    defer { probe.stop() }
    let queue = ObservedOperationQueue(name: "uploads")
    let done = BlockOperation {}
    done.name = "done"
    queue.addOperation(done)
    #expect(eventually { done.isFinished })
    // Still watched (not sampled since): the probe looks at the operation itself.
    #expect(
      probe.registry.apply(.init(command: .cancel(operation: "done")))
        == [.cancelTooLate(operation: "done")])
    #expect(!done.isCancelled)
    queue.isSuspended = true
    let next = BlockOperation {}
    next.name = "next batch"
    queue.addOperation(next)
    let outcome = probe.registry.apply(
      .init(command: .cancelAll(queue: "uploads"), operations: ["done"]))
    #expect(outcome == [.cancelTooLate(operation: "done")])
    #expect(!next.isCancelled)
    queue.cancelAllOperations()
    queue.isSuspended = false
  }
}

extension EventKind {
  /// A state step the probe found by sampling (everything but `added`).
  fileprivate var isSampledStep: Bool {
    if case .state(_, let from, _, _) = self { from != .initialized } else { false }
  }
}

/// Only the owner can attach.
extension ProbeTests {
  @Test func aProbeDirectoryAnotherUserCouldWriteIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("opsview-dir-\(getpid())-\(UUID().uuidString.prefix(6))").path
    #expect(mkdir(dir, 0o700) == 0)
    defer { rmdir(dir) }
    #expect(throws: Never.self) { try ProbeAddress.check(dir) }
    chmod(dir, 0o777)
    #expect {
      try ProbeAddress.check(dir)
    } throws: { "\($0)".contains("mode 777") }
    chmod(dir, 0o700)
    // Made by another user first (the tests run as root, which can give it away).
    if geteuid() == 0 {
      chown(dir, 65534, 65534)
      #expect {
        try ProbeAddress.check(dir)
      } throws: { "\($0)".contains("belongs to uid 65534") }
    }
    let link = dir + "-link"
    symlink(dir, link)
    defer { unlink(link) }
    #expect {
      try ProbeAddress.check(link)
    } throws: { "\($0)".contains("not a directory") }
  }

  @Test func theViewerRefusesASocketAnotherUserListensOn() throws {
    let probe = try Probe.startOrThrow(program: "probe-owner", sampleInterval: 3600)
    defer { probe.stop() }
    // The probe is this user's: connecting as if we were someone else must be refused.
    #expect(throws: Never.self) { close(try UnixSocket.connect(to: probe.path)) }
    #expect {
      try UnixSocket.connect(to: probe.path, owner: geteuid() &+ 4242)
    } throws: { "\($0)".contains("is not yours") }
  }

  @Test func aTCPProbeServesOnlyAViewerWithItsToken() throws {
    let probe = try Probe.startOrThrow(
      program: "probe-token", sampleInterval: 3600, transport: .tcp(port: 0))
    defer { probe.stop() }
    _ = ObservedOperationQueue(name: "secret-queue")
    guard case .tcp(_, let port) = try ProbeTarget.parse(probe.path) else {
      Issue.record("\(probe.path)")
      return
    }
    let token = try #require(probe.token)
    // The token is in the probe's file, readable by this user only.
    let marker = ProbeAddress.tcpMarker(program: "probe-token", pid: getpid())
    let attributes = try FileManager.default.attributesOfItem(atPath: marker)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(try String(contentsOfFile: marker, encoding: .utf8).contains(token))
    // Without it: nothing but a refusal (before: the whole event stream, and commands).
    let stranger = try RawViewer(tcp: port)
    stranger.send(#"{"command":"suspend","target":"secret-queue"}"# + "\n")
    let reply = stranger.line() ?? ""
    #expect(reply.contains("\"refused\"") && !reply.contains("secret-queue"), "\(reply)")
    #expect(stranger.line(timeout: 2) == nil)
    let guesser = try RawViewer(tcp: port)
    guesser.send(#"{"token":"0000"}"# + "\n")
    #expect(guesser.line()?.contains("\"refused\"") == true)
    // With it (opsview attach reads it from the file): the stream.
    let client = ProbeClient(target: try ProbeTarget.parse(probe.path))
    defer { client.close() }
    let seen = Collected()
    #expect(
      seen.eventuallySees(client) { $0.isQueueAdded("secret-queue") })
  }
}
