import Foundation
import OpsEngine
import Synchronization

/// The program's side of the socket. Publishing only appends an event to a bounded buffer under a
/// lock: the program never waits for a viewer, and never encodes JSON (each viewer's thread does). Each viewer gets a thread that writes the buffer from the
/// start (so a viewer that connects late, or reconnects, folds the whole story) and then follows it.
/// When the buffer is full, new events are dropped and counted; viewers are told the count.
final class ProbeServer: Sendable {
  private struct State {
    var events: [Event] = []
    var dropped = 0
    var stopped = false
  }
  private let state = Mutex(State())
  private let capacity: Int
  /// The socket file to remove when stopped (nil for TCP).
  let path: String?
  private let listener: Int32
  private let headerLine: [UInt8]
  private let onCommand: @Sendable (Command) -> Void

  /// Serves viewers that connect to `listener`; `path` is its socket file, if any.
  init(
    listener: Int32, path: String?, header: ProbeWire.Header, capacity: Int,
    onCommand: @escaping @Sendable (Command) -> Void
  ) {
    self.path = path
    self.capacity = capacity
    self.onCommand = onCommand
    headerLine = Array((ProbeWire.headerLine(header) + "\n").utf8)
    self.listener = listener
    let server = self
    Thread.detachNewThread { server.acceptLoop() }
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

  /// Stops once (a second call must not close a descriptor number reused since).
  func stop() {
    let first = state.withLock { s in
      defer { s.stopped = true }
      return !s.stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    if let path { unlink(path) }
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        return
      }
      let server = self
      Thread.detachNewThread { server.serve(fd) }
      Thread.detachNewThread { server.readCommands(fd) }
    }
  }

  /// Writes the buffer to one viewer, then follows it; polling is enough at a viewer's frame rate.
  private func serve(_ fd: Int32) {
    // shutdown first: the command reader blocked in recv on this fd would keep it open past close.
    defer {
      shutdown(fd, Int32(SHUT_RDWR))
      close(fd)
    }
    guard UnixSocket.write(fd, headerLine) else { return }
    var next = 0
    var toldDropped = 0
    while true {
      let (batch, dropped, stopped) = state.withLock { s in
        (Array(s.events[next...].prefix(4096)), s.dropped, s.stopped)
      }
      if stopped { return }
      if !batch.isEmpty {
        var text = ""
        for event in batch { text += event.jsonLine + "\n" }
        guard UnixSocket.write(fd, Array(text.utf8)) else { return }
      }
      next += batch.count
      if dropped != toldDropped {
        toldDropped = dropped
        guard UnixSocket.write(fd, Array((ProbeWire.json(["dropped": dropped]) + "\n").utf8))
        else { return }
      }
      if batch.isEmpty { usleep(10_000) }
    }
  }

  private func readCommands(_ fd: Int32) {
    var reader = LineReader(fd: fd, limit: 4096)
    while case .line(let line) = reader.next() {
      if let command = ProbeWire.command(line) { onCommand(command) }
    }
  }
}
