import Foundation
import OpsEngine
import OpsEvents
import Synchronization

/// Lets `opsview attach` see this program: `try Probe.start()` once at launch, then create queues as
/// `ObservedOperationQueue` (or publish a `LiveRuntime` with `Probe.publish(_:)`). Steering commands
/// from the viewer are refused unless `control` is true.
public final class Probe: Sendable {
  /// Where a probe listens. The Unix socket (the default) only this user can open; a TCP port on
  /// loopback any local user can, so it is only used when asked for.
  public enum Transport: Sendable {
    case unixSocket
    /// `port` 0 picks a free port (read it from `Probe.path`). `host` must be loopback.
    case tcp(port: UInt16, host: String = "127.0.0.1")
  }

  /// The running probe; observed queues report to it (nothing is reported before `start`).
  public static var current: Probe? { running.withLock { $0 } }
  private static let running = Mutex<Probe?>(nil)

  /// The socket's path, or `HOST:PORT` for TCP: what `opsview attach` takes.
  public let path: String
  public let control: Bool
  /// A TCP probe's entry in the probe directory (removed by `stop`).
  private let marker: String?
  /// A TCP probe's secret: a viewer presents it before it sees anything. `opsview attach` reads it
  /// from the probe's 0600 file; print it (or set `OPSVIEW_TOKEN` for the viewer) when the viewer
  /// cannot read that file, as from outside a container. Nil for a Unix socket.
  public let token: String?
  private let stopped = Mutex(false)
  let sampleInterval: Double
  private let server: Mutex<ProbeServer?> = Mutex(nil)
  private let clock = ContinuousClock.now
  private let seq = Mutex(0)
  let registry = ProbeRegistry()
  /// The runtime `publish` was given: commands go to it rather than to observed queues.
  private let published = Mutex<LiveRuntime?>(nil)
  private let log: @Sendable (String) -> Void

  /// Why the last `start` did not start a probe (the program runs on, unobserved), or nil.
  public static var failure: String? { lastFailure.withLock { $0 } }
  private static let lastFailure = Mutex<String?>(nil)

  /// Starts listening on a Unix socket under `ProbeAddress.directory` (0600, in a 0700 directory
  /// of this user), or on a loopback TCP port when `transport` asks (with a token, see `token`).
  /// `sampleInterval`: how often operation states are read (Foundation on Linux has no KVO to
  /// observe them). `capacity`: events kept for viewers that have not taken them; beyond it events
  /// are dropped and counted. `log`: where the probe says what viewers asked of the program (one
  /// line each; refusals at most once a second a viewer) and why it could not start.
  ///
  /// Never throws and never stops the program: when the probe cannot start (the port is taken, the
  /// directory belongs to another user, a host that is not loopback), it says why through `log`
  /// (else on standard error), keeps it in `Probe.failure` and returns nil; observed queues then
  /// work as plain `OperationQueue`s, unobserved.
  @discardableResult
  public static func start(
    program: String = ProcessInfo.processInfo.processName, control: Bool = false,
    sampleInterval: Double = 0.05, capacity: Int = 200_000, transport: Transport = .unixSocket,
    log: (@Sendable (String) -> Void)? = nil
  ) -> Probe? {
    do {
      let probe = try open(
        program: program, control: control, sampleInterval: sampleInterval, capacity: capacity,
        transport: transport, log: log ?? { _ in })
      lastFailure.withLock { $0 = nil }
      return probe
    } catch {
      let why = "opsview: probe not started: \(error.description); the program runs unobserved"
      lastFailure.withLock { $0 = error.description }
      if let log { log(why) } else { FileHandle.standardError.write(Data((why + "\n").utf8)) }
      return nil
    }
  }

  /// `start`, throwing why it could not (tests; programs use `start`).
  static func open(
    program: String, control: Bool, sampleInterval: Double, capacity: Int, transport: Transport,
    limits: ProbeServer.Limits = ProbeServer.Limits(), log: @escaping @Sendable (String) -> Void
  ) throws(ProbeError) -> Probe {
    guard current == nil else {
      throw ProbeError("a probe is running in this program already (\(current!.path))")
    }
    let interval = sampleInterval.isFinite ? min(max(sampleInterval, 0.001), 3600) : 0.05
    let listener: Int32
    let path: String
    let socketFile: String?
    var marker: String?
    var token: String?
    _ = try ProbeAddress.privateDirectory()
    switch transport {
    case .unixSocket:
      path = ProbeAddress.path(program: program, pid: getpid())
      do { listener = try UnixSocket.listen(at: path) } catch { throw ProbeError("\(error)") }
      socketFile = path
    case .tcp(let port, let host):
      let bound = try LoopbackTCP.listen(host: host, port: port)
      listener = bound.fd
      path = ProbeTarget.tcp(host: host, port: bound.port).description
      socketFile = nil
      let secret = Secret.make()
      token = secret
      // Listed beside the sockets, so `opsview attach` and a name find it; its second line is the
      // token a viewer must present (the file is 0600, in this user's 0700 directory).
      let file = ProbeAddress.tcpMarker(program: program, pid: getpid())
      if PrivateFile.write(file, path + "\n" + secret + "\n") { marker = file }
    }
    let probe = Probe(
      path: path, control: control, sampleInterval: interval, marker: marker, token: token,
      log: log)
    let header = ProbeWire.Header(
      program: ControlCharacters.printable(program), pid: getpid(), control: control,
      sampleInterval: interval, started: Date().timeIntervalSince1970)
    let server = ProbeServer(
      listener: listener, path: socketFile, token: token, header: header, capacity: capacity,
      limits: limits,
      onCommand: { [weak probe] in probe?.handle($0) },
      onRefusal: { [weak probe] in probe?.report($0) })
    probe.server.withLock { $0 = server }
    running.withLock { $0 = probe }
    registerExitHandler()
    probe.startSampling()
    return probe
  }

  /// At exit the running probe takes a last sample and tells its viewers the program ended.
  private static let exitHandler = Mutex(false)
  private static func registerExitHandler() {
    let first = exitHandler.withLock { registered in
      defer { registered = true }
      return !registered
    }
    if first { atexit { Probe.current?.stop() } }
  }

  private init(
    path: String, control: Bool, sampleInterval: Double, marker: String?, token: String?,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.marker = marker
    self.token = token
    self.path = path
    self.control = control
    self.sampleInterval = sampleInterval
    self.log = log
  }

  /// Takes a last sample, sends viewers what they have not taken (for up to a second) and tells
  /// them the program ended, then stops listening and removes the socket. Called at exit too (a
  /// program killed by a signal leaves a stale socket, which `opsview attach` removes).
  public func stop() {
    let first = stopped.withLock { s in
      defer { s = true }
      return !s
    }
    guard first else { return }
    registry.sample(self)
    let server = server.withLock { $0 }
    server?.stop()
    self.server.withLock { $0 = nil }
    if let marker { unlink(marker) }
    Self.running.withLock { if $0 === self { $0 = nil } }
  }

  /// The server's counters (viewers, refusals, the largest outgoing backlog), for tests.
  var serverStatistics: ProbeServer.Stats? { server.withLock { $0 }?.statistics }

  /// Events dropped because the buffer was full.
  public var dropped: Int { server.withLock { $0?.dropped ?? 0 } }

  /// Publishes every event of a `LiveRuntime` from now on (its own seq and time are kept: one
  /// runtime a probe, without observed queues, and published before it builds anything, since the
  /// viewer folds the story from its first event). With `control`, the viewer's commands are
  /// performed on it as key commands, so the runtime reports each with its effects.
  public func publish(_ runtime: LiveRuntime) {
    published.withLock { $0 = runtime }
    runtime.subscribe { [weak self] event in self?.server.withLock { $0 }?.publish(event) }
  }

  func emit(_ kind: EventKind) {
    // seq and time are taken under one lock (one clock read), so events reach the buffer in seq
    // order with times that never go back.
    seq.withLock { n in
      n += 1
      let elapsed = (ContinuousClock.now - clock).components
      let time = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
      server.withLock { $0 }?.publish(Event(seq: n, time: time, kind: kind))
    }
  }

  /// How many cancels that came too late one command reports as events.
  static let lateReported = 20

  /// A viewer's command, validated by the wire already. Returns why it is refused, if it is (the
  /// server reports refusals at most once a second a viewer).
  private func handle(_ request: ProbeWire.Request) -> CommandRefusal? {
    let command = request.command
    guard control else {
      return CommandRefusal(
        target: command.target, reason: "\(command.name) refused: control is off in this program")
    }
    if let runtime = published.withLock({ $0 }) {
      log("opsview: \(command.name) \(command.target) from the viewer")
      if let names = request.operations {
        for name in names { runtime.perform(.cancel(operation: name), source: .key) }
      } else {
        runtime.perform(command, source: .key)
      }
      return nil
    }
    let value: String? =
      if case .setMaxConcurrent(_, let v) = command { v.map(String.init) ?? "default" } else { nil }
    emit(.command(command: command.name, target: command.target, value: value, source: .key))
    log(
      "opsview: \(command.name) \(command.target)\(value.map { " \($0)" } ?? "")"
        + (request.operations.map { " (\($0.count) named)" } ?? "") + " from the viewer")
    // One command's refusals are one event and one log line: a cancelAll naming a thousand
    // unknown operations must not flood the program's log or the viewers' buffer.
    // Cancels that came too late are reported one by one up to a few (the board marks each),
    // and logged as one line.
    var refused: (first: String, why: String, count: Int)?
    var late: [String] = []
    for outcome in registry.apply(request) {
      switch outcome {
      case .refused(let o, let why):
        refused = refused.map { ($0.first, $0.why, $0.count + 1) } ?? (o, why, 1)
        continue
      case .cancelTooLate(let o):
        late.append(o)
        if late.count > Self.lateReported { continue }
      default: break
      }
      emit(outcome)
    }
    if let first = late.first {
      let more = late.count > 1 ? " (and \(late.count - 1) more named)" : ""
      log("opsview: cancel \(first) arrived too late: it had finished\(more)")
    }
    if let r = refused {
      let more = r.count > 1 ? " (and \(r.count - 1) more named, refused alike)" : ""
      emit(.refused(operation: r.first, reason: r.why + more))
      log("opsview: \(command.name) \(r.first) refused: \(r.why)\(more)")
    }
    return nil
  }

  /// Commands the probe refused (already coalesced): reported to viewers and the log.
  private func report(_ refusal: CommandRefusal) {
    emit(.refused(operation: refusal.target, reason: refusal.reason))
    log("opsview: refused from the viewer: \(refusal.target): \(refusal.reason)")
  }

  private func startSampling() {
    let interval = sampleInterval
    Thread.detachNewThread { [weak self] in
      // The probe is held only while sampling, never across the pause.
      while true {
        usleep(UInt32(interval * 1_000_000))
        guard let probe = self, !probe.stopped.withLock({ $0 }) else { return }
        probe.registry.sample(probe)
      }
    }
  }
}
