import Foundation
import OpsEngine
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
  let sampleInterval: Double
  private let server: Mutex<ProbeServer?> = Mutex(nil)
  private let clock = ContinuousClock.now
  private let seq = Mutex(0)
  let registry = ProbeRegistry()
  /// The runtime `publish` was given: commands go to it rather than to observed queues.
  private let published = Mutex<LiveRuntime?>(nil)
  private let log: @Sendable (String) -> Void

  /// Starts listening on a Unix socket under `ProbeAddress.directory` (0600), or on a loopback
  /// TCP port when `transport` asks (a non-loopback host throws). `sampleInterval`: how often
  /// operation states are read (Foundation on Linux has no KVO to observe them). `capacity`: events
  /// kept for viewers; beyond it events are dropped and counted.
  @discardableResult
  public static func start(
    program: String = ProcessInfo.processInfo.processName, control: Bool = false,
    sampleInterval: Double = 0.05, capacity: Int = 200_000, transport: Transport = .unixSocket,
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws -> Probe {
    let listener: Int32
    let path: String
    let socketFile: String?
    var marker: String?
    try FileManager.default.createDirectory(
      atPath: ProbeAddress.directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    switch transport {
    case .unixSocket:
      path = ProbeAddress.path(program: program, pid: getpid())
      listener = try UnixSocket.listen(at: path)
      socketFile = path
    case .tcp(let port, let host):
      let bound = try LoopbackTCP.listen(host: host, port: port)
      listener = bound.fd
      path = ProbeTarget.tcp(host: host, port: bound.port).description
      socketFile = nil
      // Listed beside the sockets, so `opsview attach` and a name find it.
      let file = ProbeAddress.tcpMarker(program: program, pid: getpid())
      if FileManager.default.createFile(
        atPath: file, contents: Data(path.utf8), attributes: [.posixPermissions: 0o600])
      {
        marker = file
      }
    }
    let probe = Probe(
      path: path, control: control, sampleInterval: sampleInterval, marker: marker, log: log)
    let header = ProbeWire.Header(
      program: program, pid: getpid(), control: control, sampleInterval: sampleInterval,
      started: Date().timeIntervalSince1970)
    let server = ProbeServer(
      listener: listener, path: socketFile, header: header, capacity: capacity,
      onCommand: { [weak probe] in probe?.handle($0) })
    probe.server.withLock { $0 = server }
    running.withLock { $0 = probe }
    probe.startSampling()
    return probe
  }

  private init(
    path: String, control: Bool, sampleInterval: Double, marker: String?,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.marker = marker
    self.path = path
    self.control = control
    self.sampleInterval = sampleInterval
    self.log = log
  }

  /// Stops listening and removes the socket (a program that exits without it leaves a stale socket,
  /// which `opsview attach` removes).
  public func stop() {
    server.withLock { $0?.stop() }
    if let marker { unlink(marker) }
    Self.running.withLock { if $0 === self { $0 = nil } }
  }

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

  private func handle(_ command: Command) {
    guard control else {
      log("opsview: refused \(command.name) from the viewer: control is off")
      return
    }
    if let runtime = published.withLock({ $0 }) {
      log("opsview: \(command.name) from the viewer")
      runtime.perform(command, source: .key)
      return
    }
    let (target, value): (String, String?) =
      switch command {
      case .cancel(let o): (o, nil)
      case .cancelAll(let q), .suspend(let q), .resume(let q): (q, nil)
      case .setMaxConcurrent(let q, let v): (q, v.map(String.init) ?? "default")
      }
    emit(.command(command: command.name, target: target, value: value, source: .key))
    log("opsview: \(command.name) \(target)\(value.map { " \($0)" } ?? "") from the viewer")
    if let outcome = registry.apply(command) { emit(outcome) }
  }

  private func startSampling() {
    let interval = sampleInterval
    Thread.detachNewThread { [weak self] in
      while let probe = self {
        probe.registry.sample(probe)
        usleep(UInt32(interval * 1_000_000))
      }
    }
  }
}
