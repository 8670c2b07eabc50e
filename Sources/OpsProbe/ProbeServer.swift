import Foundation
import OpsEngine
import OpsEvents
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The program's side of the socket: one thread and one `poll` loop for every viewer (no thread per
/// connection). Publishing only appends an event to a bounded buffer under a lock: the program never
/// waits for a viewer, and never encodes JSON (the loop does, for each viewer, only as fast as that
/// viewer reads: its outgoing bytes are bounded).
///
/// What a viewer can do to the program is bounded: at most `Limits.viewers` at once (the next ones
/// are told why and closed), commands rate-limited per connection, refusals reported at most once a
/// second per connection, lines of at most 4 KiB. A failing `accept` (EMFILE: the program is out
/// of descriptors) pauses accepting for a moment and never ends the loop.
///
/// The buffer bounds the backlog, not the history: events every connected viewer has taken are let
/// go once the buffer is half full, so a viewer that keeps up sees everything. Events are dropped
/// (and counted, and viewers told) only when the buffer is full of events some viewer still needs
/// or, with no viewer, of the story so far.
final class ProbeServer: Sendable {
  struct Limits: Sendable {
    /// Viewers served at once; the next are refused politely.
    var viewers = 8
    /// Commands a connection may send a second (a token bucket of `burst`).
    var commandsPerSecond = 20.0
    var burst = 40.0
    /// Commands all viewers together may send a second (reconnecting does not buy more).
    var allCommandsPerSecond = 50.0
    var allBurst = 80.0
    /// The least time between two refusal reports of any viewers (a report a second a viewer).
    var reportInterval = 0.25
    /// Tests only: the first N accepts fail with EMFILE, as when the program is out of descriptors.
    var simulatedAcceptFailures = 0
    /// Encoded bytes waiting for one viewer before the loop stops encoding for it.
    var outgoing = 256 << 10
    /// A TCP viewer must present the token within this many seconds.
    var tokenDeadline = 5.0
  }

  private struct State {
    var events: [Event] = []
    /// The absolute index of `events[0]` (events before it were taken by every viewer and let go).
    var start = 0
    var dropped = 0
    var stopping = false
    /// The queue events among those let go (at most `preambleLimit`): a viewer that comes later
    /// still learns the queues, their limits and suspensions, before the events kept.
    var preamble: [Event] = []
  }
  private let state = Mutex(State())
  private let capacity: Int
  let limits: Limits
  /// The socket file to remove when stopped (nil for TCP).
  let path: String?
  /// A TCP probe's secret: a viewer must send `{"token":…}` first.
  let token: String?
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let headerFields: [String: Any & Sendable]
  /// Applies a valid command; returns why it is refused, if it is.
  private let onCommand: @Sendable (ProbeWire.Request) -> CommandRefusal?
  private let onRefusal: @Sendable (CommandRefusal) -> Void
  private let finished = DispatchSemaphore(value: 0)
  /// What the loop shares across viewers: the rate budget of them all, when the last refusal report
  /// was made, and the unreported refusals of viewers that left. Touched only on the loop's thread.
  private final class Shared: @unchecked Sendable {
    var tokens: Double
    var refilled = Date()
    var reportedAt = Date.distantPast
    var orphan = (refused: 0, limited: 0, last: CommandRefusal?.none)
    init(_ burst: Double) { tokens = burst }
  }
  private let shared: Shared
  /// Accept failures still to simulate (`Limits.simulatedAcceptFailures`), on the loop's thread.
  private let simulated: Shared
  /// Counters for tests and the README's claims.
  private let stats = Mutex(Stats())

  struct Stats: Sendable {
    var viewers = 0
    var refusedViewers = 0
    var acceptFailures = 0
    /// The most bytes encoded and waiting for any one viewer.
    var largestOutgoing = 0
    var rateLimited = 0
  }

  init(
    listener: Int32, path: String?, token: String?, header: ProbeWire.Header, capacity: Int,
    limits: Limits = Limits(),
    onCommand: @escaping @Sendable (ProbeWire.Request) -> CommandRefusal?,
    onRefusal: @escaping @Sendable (CommandRefusal) -> Void
  ) {
    self.path = path
    self.token = token
    self.capacity = max(capacity, 1)
    self.limits = limits
    shared = Shared(limits.allBurst)
    simulated = Shared(Double(limits.simulatedAcceptFailures))
    self.onCommand = onCommand
    self.onRefusal = onRefusal
    headerFields = ProbeWire.headerFields(header)
    self.listener = listener
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    wake = (ends[0], ends[1])
    _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
    let server = self
    Thread.detachNewThread { server.loop() }
  }

  func publish(_ event: Event) {
    state.withLock { s in
      if s.events.count < capacity {
        s.events.append(event)
      } else {
        s.dropped += 1
      }
    }
  }

  var dropped: Int { state.withLock { $0.dropped } }
  var statistics: Stats { stats.withLock { $0 } }

  /// Stops once: what viewers have not taken yet is sent (for up to `flush` seconds), then an
  /// `{"ended":true}` line, and the connections and the listener are closed.
  func stop(flush: Double = 1) {
    let first = state.withLock { s in
      defer { s.stopping = true }
      return !s.stopping
    }
    guard first else { return }
    var byte: UInt8 = 1
    _ = Glibc.write(wake.write, &byte, 1)
    _ = finished.wait(timeout: .now() + flush + 0.5)
  }

  // MARK: - The loop (its own thread; everything below is touched only there)

  private final class Viewer {
    let fd: Int32
    var cursor: Int
    var out: [UInt8] = []
    var sent = 0
    var input: [UInt8] = []
    var authorized: Bool
    let accepted = Date()
    var toldDropped = 0
    var tokens: Double
    var refilled = Date()
    /// Commands refused or over the limit since the last report, and when it was made.
    var unreported = (refused: 0, limited: 0, last: CommandRefusal?.none)
    var reportedAt = Date.distantPast
    var closing = false

    init(fd: Int32, cursor: Int, authorized: Bool, burst: Double) {
      self.fd = fd
      self.cursor = cursor
      self.authorized = authorized
      tokens = burst
    }
    var pending: Int { out.count - sent }
  }

  private func loop() {
    var viewers: [Viewer] = []
    var acceptPausedUntil = Date.distantPast
    while true {
      if state.withLock({ $0.stopping }) { break }
      var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
      let accepting = Date() >= acceptPausedUntil
      if accepting { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
      for v in viewers {
        var events = Int16(POLLIN)
        if v.pending > 0 { events |= Int16(POLLOUT) }
        fds.append(pollfd(fd: v.fd, events: events, revents: 0))
      }
      // With viewers, new events are looked for every 10 ms; without, the loop sleeps.
      let timeout: Int32 = !viewers.isEmpty ? 10 : accepting ? -1 : 100
      _ = poll(&fds, nfds_t(fds.count), timeout)
      if fds[0].revents != 0 {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &sink, sink.count) > 0 {}
      }
      if accepting, fds[1].revents != 0 {
        if !acceptAll(into: &viewers) { acceptPausedUntil = Date().addingTimeInterval(0.1) }
      }
      let base = accepting ? 2 : 1
      for (i, v) in viewers.enumerated() where base + i < fds.count {
        let r = fds[base + i].revents
        if r & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readFrom(v) }
      }
      for v in viewers where !v.closing { expireToken(v) }
      for v in viewers where !v.closing && v.authorized {
        fill(v)
        flushOut(v)
        report(v)
      }
      viewers.removeAll { v in
        if v.closing {
          // What it had sent and was not reported yet is reported with the next report.
          shared.orphan.refused += v.unreported.refused
          shared.orphan.limited += v.unreported.limited
          shared.orphan.last = v.unreported.last ?? shared.orphan.last
          close(v)
        }
        return v.closing
      }
      reportOrphans()
      letGo(taken: viewers)
      stats.withLock { $0.viewers = viewers.count }
    }
    finish(viewers)
  }

  /// Accepts every waiting connection; false when accepting failed for lack of descriptors (the
  /// loop then waits a moment and tries again: it never stops accepting).
  private func acceptAll(into viewers: inout [Viewer]) -> Bool {
    while true {
      if simulated.tokens >= 1 {
        simulated.tokens -= 1
        stats.withLock { $0.acceptFailures += 1 }
        return false
      }
      let fd = accept(listener, nil, nil)
      if fd >= 0 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      if fd < 0 {
        switch errno {
        case EINTR, ECONNABORTED: continue
        case EAGAIN, EWOULDBLOCK: return true
        default:
          stats.withLock { $0.acceptFailures += 1 }
          return false
        }
      }
      // The program's descriptors come first: a viewer never takes the last few (libdispatch dies
      // of SIGILL when it cannot get one).
      if Int(fd) >= Descriptors.ceiling {
        refuse(
          fd,
          "the program is short of file descriptors (limit \(Descriptors.limit)): a viewer would take what it needs; try again later"
        )
        continue
      }
      if path != nil, let uid = PeerCredentials.uid(of: fd), uid != geteuid() {
        refuse(fd, "only the user who runs the program can attach (you are uid \(uid))")
        continue
      }
      guard viewers.count < limits.viewers else {
        refuse(
          fd,
          "\(limits.viewers) viewers are attached already, the most this probe serves; try again when one leaves"
        )
        continue
      }
      let start = state.withLock { $0.start }
      let v = Viewer(fd: fd, cursor: start, authorized: token == nil, burst: limits.burst)
      if v.authorized { greet(v) }
      viewers.append(v)
    }
  }

  /// A polite refusal in place of the header, then the connection is closed.
  private func refuse(_ fd: Int32, _ why: String) {
    stats.withLock { $0.refusedViewers += 1 }
    var o = headerFields
    o["refused"] = why
    _ = UnixSocket.write(fd, Array((ProbeWire.json(o) + "\n").utf8))
    shutdown(fd, Int32(SHUT_RDWR))
    Glibc.close(fd)
  }

  private func greet(_ v: Viewer) {
    var o = headerFields
    let (start, preamble) = state.withLock { ($0.start, $0.preamble) }
    // Events let go before this viewer came: its story starts later (the board says so), after
    // the queue events among them.
    if start > 0 { o["notKept"] = start }
    v.out += Array((ProbeWire.json(o) + "\n").utf8)
    for event in preamble {
      v.out += event.jsonLine.utf8
      v.out.append(10)
    }
    v.cursor = start
  }

  /// How many queue events are kept for viewers that come after events were let go.
  static let preambleLimit = 2_000

  private static func isQueueEvent(_ kind: EventKind) -> Bool {
    switch kind {
    case .queueAdded, .queueSuspended, .queueResumed, .queueMaxConcurrent: true
    default: false
    }
  }

  private func readFrom(_ v: Viewer) {
    var chunk = [UInt8](repeating: 0, count: 16384)
    // At most a few chunks a round: a flooding viewer cannot keep the loop to itself.
    for _ in 0..<4 {
      let n = chunk.withUnsafeMutableBytes { recv(v.fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
      guard n > 0 else {
        v.closing = true
        return
      }
      v.input += chunk[..<n]
      while let nl = v.input.firstIndex(of: 10) {
        let line = Array(v.input[..<nl])
        v.input.removeSubrange(...nl)
        handle(line, from: v)
        if v.closing { return }
      }
      if v.input.count > 4096 {
        v.closing = true
        return
      }
    }
  }

  private func expireToken(_ v: Viewer) {
    guard !v.authorized, Date().timeIntervalSince(v.accepted) > limits.tokenDeadline else { return }
    refuseLate(v, "no token: a TCP probe needs the token from its 0600 file (see the README)")
  }

  private func refuseLate(_ v: Viewer, _ why: String) {
    stats.withLock { $0.refusedViewers += 1 }
    var o = headerFields
    o["refused"] = why
    _ = UnixSocket.write(v.fd, Array((ProbeWire.json(o) + "\n").utf8))
    v.closing = true
  }

  private func handle(_ line: [UInt8], from v: Viewer) {
    if line.isEmpty { return }
    guard v.authorized else {
      if let token, let given = ProbeWire.token(line), Secret.equal(given, token) {
        v.authorized = true
        greet(v)
      } else {
        refuseLate(v, "wrong or missing token: a TCP probe needs the token from its 0600 file")
      }
      return
    }
    // A token bucket per connection and one for all: a flood, or many connections, cost the
    // program nothing but this count.
    let now = Date()
    v.tokens = min(
      limits.burst, v.tokens + now.timeIntervalSince(v.refilled) * limits.commandsPerSecond)
    v.refilled = now
    shared.tokens = min(
      limits.allBurst,
      shared.tokens + now.timeIntervalSince(shared.refilled) * limits.allCommandsPerSecond)
    shared.refilled = now
    guard v.tokens >= 1, shared.tokens >= 1 else {
      v.unreported.limited += 1
      stats.withLock { $0.rateLimited += 1 }
      return
    }
    v.tokens -= 1
    shared.tokens -= 1
    switch ProbeWire.request(line) {
    case .success(let request):
      if let refusal = onCommand(request) {
        v.unreported.refused += 1
        v.unreported.last = refusal
      }
    case .failure(let refusal):
      v.unreported.refused += 1
      v.unreported.last = refusal
    }
  }

  /// Refused and rate-limited commands, at most one report a second per connection and one every
  /// `reportInterval` of all (the others wait and are counted into the next).
  private func report(_ v: Viewer) {
    guard v.unreported.refused + v.unreported.limited > 0,
      Date().timeIntervalSince(v.reportedAt) >= 1,
      Date().timeIntervalSince(shared.reportedAt) >= limits.reportInterval
    else { return }
    v.reportedAt = Date()
    send(report: v.unreported)
    v.unreported = (0, 0, nil)
  }

  /// The refusals of viewers that left, reported when reports are due.
  private func reportOrphans() {
    guard shared.orphan.refused + shared.orphan.limited > 0,
      Date().timeIntervalSince(shared.reportedAt) >= limits.reportInterval
    else { return }
    send(report: shared.orphan)
    shared.orphan = (0, 0, nil)
  }

  private func send(report: (refused: Int, limited: Int, last: CommandRefusal?)) {
    shared.reportedAt = Date()
    let (refused, limited, last) = report
    var parts: [String] = []
    if let last {
      parts.append(last.reason)
      if refused > 1 { parts.append("and \(refused - 1) more commands refused") }
    }
    if limited > 0 {
      parts.append(
        "\(limited) commands ignored: over the rate limit (\(Int(limits.commandsPerSecond)) a second a viewer, \(Int(limits.allCommandsPerSecond)) from all)"
      )
    }
    onRefusal(CommandRefusal(target: last?.target ?? "?", reason: parts.joined(separator: "; ")))
  }

  /// Encodes events for `v` while its outgoing bytes are under the bound.
  private func fill(_ v: Viewer) {
    while v.pending < limits.outgoing {
      let (batch, dropped, start) = state.withLock { s -> ([Event], Int, Int) in
        let from = max(v.cursor - s.start, 0)
        return (Array(s.events[min(from, s.events.count)...].prefix(512)), s.dropped, s.start)
      }
      v.cursor = max(v.cursor, start)
      if dropped != v.toldDropped {
        v.toldDropped = dropped
        v.out += Array((ProbeWire.json(["dropped": dropped]) + "\n").utf8)
      }
      if batch.isEmpty { break }
      for event in batch {
        v.out += event.jsonLine.utf8
        v.out.append(10)
      }
      v.cursor += batch.count
    }
    stats.withLock { $0.largestOutgoing = max($0.largestOutgoing, v.pending) }
  }

  private func flushOut(_ v: Viewer) {
    while v.pending > 0 {
      let n = v.out[v.sent...].withUnsafeBytes {
        Glibc.send(v.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
      guard n > 0 else {
        v.closing = true
        return
      }
      v.sent += n
    }
    if v.sent == v.out.count {
      v.out.removeAll(keepingCapacity: v.out.capacity <= limits.outgoing * 2)
      v.sent = 0
    } else if v.sent > limits.outgoing {
      v.out.removeSubrange(..<v.sent)
      v.sent = 0
    }
  }

  /// Lets go of the events every viewer has taken, once the buffer is half full (so a viewer that
  /// connects later still gets the story from the start while there is room). A viewer that
  /// stopped reading while the buffer is full is dropped: it is never why the program drops events
  /// for the others (its board reconnects).
  private func letGo(taken viewers: [Viewer]) {
    let live = viewers.filter { $0.authorized && !$0.closing }
    guard !live.isEmpty else { return }
    let full = state.withLock { $0.events.count >= capacity }
    if full, live.count > 1 {
      for v in live where v.pending >= limits.outgoing { v.closing = true }
    }
    let minCursor = live.filter { !$0.closing }.map(\.cursor).min() ?? live.map(\.cursor).max()!
    let old: [Event]? = state.withLock { s in
      let taken = minCursor - s.start
      guard taken > 0, s.events.count * 2 >= capacity else { return nil }
      let old = s.events
      s.events = Array(old[taken...])
      for e in old[..<taken] where Self.isQueueEvent(e.kind) {
        guard s.preamble.count < Self.preambleLimit else { break }
        s.preamble.append(e)
      }
      s.start += taken
      return old
    }
    _ = old  // released here, outside the lock
  }

  private func close(_ v: Viewer) {
    shutdown(v.fd, Int32(SHUT_RDWR))
    Glibc.close(v.fd)
  }

  /// Stopping: the last events go to the viewers that read (for up to a second), then an
  /// `{"ended":true}` line, so a board shows the program's end as it was.
  private func finish(_ viewers: [Viewer]) {
    Glibc.close(listener)
    if let path { unlink(path) }
    var open: [Viewer] = []
    for v in viewers {
      if v.authorized && !v.closing { open.append(v) } else { close(v) }
    }
    let deadline = Date().addingTimeInterval(1)
    var ended = Set<Int32>()
    while !open.isEmpty, Date() < deadline {
      for v in open {
        fill(v)
        if !ended.contains(v.fd), v.pending < limits.outgoing, caughtUp(v) {
          v.out += Array((ProbeWire.json(["ended": true]) + "\n").utf8)
          ended.insert(v.fd)
        }
        flushOut(v)
      }
      open.removeAll { v in
        let done = v.closing || (ended.contains(v.fd) && v.pending == 0)
        if done { close(v) }
        return done
      }
      if !open.isEmpty {
        var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), 20)
      }
    }
    for v in open { close(v) }
    Glibc.close(wake.read)
    Glibc.close(wake.write)
    stats.withLock { $0.viewers = 0 }
    finished.signal()
  }

  private func caughtUp(_ v: Viewer) -> Bool {
    state.withLock { v.cursor >= $0.start + $0.events.count }
  }
}

/// The program's open-file limit, and the highest descriptor a viewer may have below it.
enum Descriptors {
  static var limit: Int {
    var rl = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &rl) == 0 else { return 1024 }
    return Int(min(rl.rlim_cur, UInt(Int32.max)))
  }

  /// Leaves the program a quarter of its limit, and at least 16 descriptors (how many it needs at
  /// its busiest is not known: libdispatch alone takes more as its thread pool grows).
  static var ceiling: Int {
    let l = limit
    return l - max(16, l / 4)
  }
}

/// The uid of the process at the other end of a Unix socket (SO_PEERCRED), nil when unknown.
enum PeerCredentials {
  /// Linux's `struct ucred` (Glibc exports it only under _GNU_SOURCE).
  private struct Credentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }
  /// SO_PEERCRED on Linux.
  private static let peerCred: Int32 = 17

  static func uid(of fd: Int32) -> uid_t? {
    var cred = Credentials()
    var length = socklen_t(MemoryLayout<Credentials>.size)
    guard getsockopt(fd, SOL_SOCKET, peerCred, &cred, &length) == 0,
      length == socklen_t(MemoryLayout<Credentials>.size)
    else { return nil }
    return cred.uid
  }
}

/// The TCP probe's token: random, compared in constant time.
enum Secret {
  static func make() -> String {
    var g = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }
      .joined()
  }

  static func equal(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var diff: UInt8 = 0
    for i in x.indices { diff |= x[i] ^ y[i] }
    return diff == 0
  }
}
