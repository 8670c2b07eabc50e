import Foundation
import OpsEngine
import Synchronization

/// The viewer's side of a probe connection: a thread reads the program's lines into a mailbox the
/// board drains on its own thread; when the program goes away it reconnects to the same address
/// (a restarted program listens at a new address: `opsview attach` with no address finds it).
public final class ProbeClient: Sendable {
  public enum Status: Sendable, Equatable {
    case connecting
    case connected(ProbeWire.Header)
    case disconnected(String)
    /// The stream broke the protocol: the message says how.
    case failed(String)
  }

  public struct Mail: Sendable {
    public var events: [Event] = []
    public var dropped = 0
    public var status: Status = .connecting
  }

  public let address: String
  private let mail = Mutex(Mail())
  private let socket = Mutex<Int32>(-1)

  public init(address: String) {
    self.address = address
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

  /// Sends a command to the program; false when not connected.
  public func send(_ command: Command) -> Bool {
    let fd = socket.withLock { $0 }
    guard fd >= 0 else { return false }
    return UnixSocket.write(fd, Array((ProbeWire.commandLine(command) + "\n").utf8))
  }

  private func run() {
    var seen = 0  // events already delivered: a reconnection replays the story from the start
    while true {
      guard let fd = try? UnixSocket.connect(to: address) else {
        usleep(200_000)
        continue
      }
      socket.withLock { $0 = fd }
      let outcome = read(fd, seen: &seen)
      socket.withLock { $0 = -1 }
      close(fd)
      mail.withLock { $0.status = outcome }
      if case .failed = outcome { return }
      // The same program keeps its address only if it restarts in place; keep trying quietly.
      usleep(200_000)
    }
  }

  private func read(_ fd: Int32, seen: inout Int) -> Status {
    var reader = LineReader(fd: fd)
    let decoder = JSONDecoder()
    guard case .line(let first) = reader.next() else {
      return .disconnected("the program closed the connection")
    }
    let header: ProbeWire.Header
    do { header = try ProbeWire.header(first) } catch { return .failed(error.description) }
    mail.withLock { $0.status = .connected(header) }
    var index = 0
    while true {
      switch reader.next() {
      case .closed: return .disconnected("the program exited or closed the probe")
      case .tooLong: return .failed("a line longer than 1 MiB: not an opsview probe stream")
      case .line(let line):
        if line.isEmpty { continue }
        if let event = try? decoder.decode(Event.self, from: Data(line)) {
          index += 1
          if index > seen {
            seen = index
            mail.withLock { $0.events.append(event) }
          }
        } else if let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
          let dropped = o["dropped"] as? Int
        {
          mail.withLock { $0.dropped = dropped }
        } else {
          return .failed(
            "line \(index + 2) is not an event: \(String(decoding: line.prefix(80), as: UTF8.self))"
          )
        }
      }
    }
  }
}
