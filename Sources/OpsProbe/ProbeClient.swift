import Foundation
import OpsEngine
import OpsEvents
import OpsInput
import Synchronization

/// The viewer's side of a probe connection: a thread reads the program's lines into a mailbox the
/// board drains on its own thread. When the program goes away the client keeps looking: at the same
/// address, and for a socket or name target at any new probe of the same program name (a restarted
/// program listens at a new path, named for its new pid). Each program run is a new story: its
/// events come with a new `run` number.
public final class ProbeClient: Sendable {
  public enum Status: Sendable, Equatable {
    case connecting
    case connected(ProbeWire.Header)
    case disconnected(String)
    /// The stream broke the protocol: the message says how. The client stops.
    case failed(String)
    /// The program refused this viewer (too many viewers, no token, not its user): the message
    /// says why. The client stops.
    case refused(String)
    /// The program stopped its probe or exited, after a last sample: what the board shows is how
    /// the program ended. (A socket or name target then waits for the program to start again.)
    case ended
  }

  /// An event and the program run it belongs to (1 for the first run the client connected to).
  public struct Received: Sendable {
    public var run: Int
    public var event: Event
  }

  public struct Mail: Sendable {
    public var events: [Received] = []
    public var dropped = 0
    /// Events of the current run this viewer does not have: let go by the probe before it came
    /// (taken by earlier viewers), past `maxEventsPerRun` or `maxBytesPerRun`, or about operations
    /// added before such a gap (`EventStreamValidator.judge`).
    public var notKept = 0
    public var status: Status = .connecting
    /// The program run connected to now (or last), 0 before the first connection.
    public var run = 0
  }

  /// The most events of one program run the viewer keeps (the probe's own buffer holds 200,000).
  public static let maxEventsPerRun = 1_000_000
  /// The most bytes of one program run's stream the viewer keeps: its names and texts are kept with
  /// the events, so this bounds them (a line may be up to 1 MiB).
  public static let maxBytesPerRun = 128 << 20

  public let target: ProbeTarget
  private let mail = Mutex(Mail())
  private let socket = Mutex<Int32>(-1)
  private let closed = Mutex(false)
  /// How long to wait between attempts to find the program.
  private let retry: UInt32
  /// The bounds of one run kept (`maxEventsPerRun`, `maxBytesPerRun` unless a test asks less).
  private let eventBound: Int
  private let byteBound: Int

  /// Starts looking for the program at once; `retryInterval` is the pause between attempts.
  public init(
    target: ProbeTarget, retryInterval: Double = 0.2, maxEvents: Int = maxEventsPerRun,
    maxBytes: Int = maxBytesPerRun
  ) {
    self.target = target
    retry = UInt32(retryInterval * 1_000_000)
    eventBound = maxEvents
    byteBound = maxBytes
    let client = self
    Thread.detachNewThread { client.run() }
  }

  /// Takes the events received since the last call, with the current status and dropped count.
  public func drain() -> Mail {
    mail.withLock { m in
      let taken = m
      m.events = []
      return taken
    }
  }

  /// Sends a command to the program; false when not connected. `operations`: for `cancelAll`,
  /// the operations a confirmation named (the program cancels only those still unfinished).
  public func send(_ command: Command, operations: [String]? = nil) -> Bool {
    let fd = socket.withLock { $0 }
    guard fd >= 0 else { return false }
    return UnixSocket.write(
      fd, Array((ProbeWire.commandLine(command, operations: operations) + "\n").utf8))
  }

  /// Stops reading and looking for the program.
  public func close() {
    closed.withLock { $0 = true }
    socket.withLock { fd in if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) } }
  }

  private var isClosed: Bool { closed.withLock { $0 } }

  /// Where to try next: the target's own address, then (for a program that restarted) the newest
  /// probe of the same program name.
  private func candidates(after lost: String?) -> [String] {
    switch target {
    case .tcp: return [target.description]
    case .socket(let path):
      let others = target.programName.map { ProbeAddress.running(named: $0) } ?? []
      let socket = FileManager.default.fileExists(atPath: path) ? [path] : []
      return socket + others.filter { $0 != path && $0 != lost }
    case .name(let name):
      return ProbeAddress.running(named: name)
    }
  }

  /// A socket path, or `HOST:PORT` (a TCP target, or a TCP probe found by its name).
  /// A TCP probe is sent its token first (from its 0600 file in the probe directory, else
  /// `OPSVIEW_TOKEN`). A Unix socket of another user is refused (`UnixSocket.connect`).
  private func connect(_ address: String) -> Int32? {
    if !address.contains("/"), case .tcp(let host, let port) = try? ProbeTarget.parse(address) {
      guard let fd = try? LoopbackTCP.connect(host: host, port: port) else { return nil }
      if let token = ProbeAddress.token(for: address) {
        _ = UnixSocket.write(fd, Array((ProbeWire.tokenLine(token) + "\n").utf8))
      }
      return fd
    }
    do {
      return try UnixSocket.connect(to: address)
    } catch let error as ProbeError where error.refused {
      mail.withLock { $0.status = .refused(error.description) }
      return nil
    } catch {
      return nil
    }
  }

  private func run() {
    // Events of this story already delivered: a reconnection replays it from the start.
    var seen = 0
    var story: (pid: Int32, started: Double)?
    var validator = EventStreamValidator()
    var kept = 0
    var lost: String?
    while !isClosed {
      // A plain loop: a lazy compactMap's `first` would connect twice (and leak one socket).
      var found: (fd: Int32, address: String)?
      for a in candidates(after: lost) {
        if let fd = connect(a) {
          found = (fd, a)
          break
        }
      }
      guard let (fd, address) = found else {
        usleep(retry)
        continue
      }
      socket.withLock { $0 = fd }
      if isClosed { shutdown(fd, Int32(SHUT_RDWR)) }
      let outcome = read(fd, seen: &seen, story: &story, validator: &validator, kept: &kept)
      socket.withLock { $0 = -1 }
      Glibc.close(fd)
      lost = address
      mail.withLock { $0.status = outcome }
      if case .failed = outcome { return }
      if case .refused = outcome { return }
      usleep(retry)
    }
  }

  /// Reads one connection. `seen`: the seq of the last event delivered of this story (a
  /// reconnection skips those). Seqs only go up; a gap is events the probe dropped (it says how
  /// many) or let go before this viewer came (`notKept`). Each event new to the story passes the
  /// one validator of outside streams (`EventStreamValidator`) before the board may see it; `kept`
  /// counts the bytes of the story's events kept (see `maxBytesPerRun`).
  private func read(
    _ fd: Int32, seen: inout Int, story: inout (pid: Int32, started: Double)?,
    validator: inout EventStreamValidator, kept: inout Int
  ) -> Status {
    var reader = LineReader(fd: fd)
    let decoder = JSONDecoder()
    var ended = false
    switch reader.next() {
    case .closed: return .disconnected("the program closed the connection")
    case .tooLong: return .failed("the first line is longer than 1 MiB: not an opsview probe")
    case .line(let first):
      let header: ProbeWire.Header
      do {
        header = try ProbeWire.header(first)
      } catch {
        return error.refused ? .refused(error.description) : .failed(error.description)
      }
      if story == nil || story! != (header.pid, header.started) {
        // Another program run (or the first): a new story, told from its start.
        story = (header.pid, header.started)
        seen = 0
        validator = EventStreamValidator()
        kept = 0
        mail.withLock {
          $0.run += 1
          $0.notKept = 0
        }
      }
      mail.withLock {
        $0.status = .connected(header)
        $0.dropped = 0
        $0.notKept = header.notKept
      }
    }
    var index = 0
    var last = 0
    while true {
      switch reader.next() {
      case .closed:
        return ended ? .ended : .disconnected("the program exited or closed the probe")
      case .tooLong: return .failed("a line longer than 1 MiB: not an opsview probe stream")
      case .line(let line):
        if line.isEmpty { continue }
        if let why = ControlCharacters.problem(in: line) {
          return .failed("line \(index + 2) carries \(why), which must not reach the terminal")
        }
        if let event = try? decoder.decode(Event.self, from: Data(line)) {
          index += 1
          guard event.seq > last else {
            return .failed(
              "event \(event.seq) arrived after event \(last): the stream is out of order")
          }
          last = event.seq
          guard event.seq > seen else { continue }
          seen = event.seq
          if validator.count >= eventBound || kept + line.count > byteBound {
            // Over the viewer's bound: the run is shown as it was, and the rest counted.
            mail.withLock { $0.notKept += 1 }
            continue
          }
          // Events the probe let go of or dropped: the story goes on from here.
          validator.resume(at: event.seq)
          switch validator.judge(event) {
          case .accept: kept += line.count
          case .skip:
            mail.withLock { $0.notKept += 1 }
            continue
          case .refuse(let why):
            return .failed("line \(index + 1), event \(event.seq): \(why)")
          }
          mail.withLock { $0.events.append(Received(run: $0.run, event: event)) }
        } else if let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
          o.count == 1, let dropped = o["dropped"] as? Int, dropped >= 0
        {
          mail.withLock { $0.dropped = dropped }
        } else if let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
          o.count == 1, o["ended"] as? Bool == true
        {
          ended = true
          mail.withLock { $0.status = .ended }
        } else {
          return .failed(
            "line \(index + 2) is not an event: \(ProbeTarget.visible(String(decoding: line.prefix(80), as: UTF8.self)))"
          )
        }
      }
    }
  }
}
