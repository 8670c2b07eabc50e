import Foundation
import OpsBoard
import OpsEngine
import OpsProbe

/// A running program as the board's event source: the events its probe sent, on the wall clock.
/// Pausing the board pauses the view, not the program: events wait in the client's mailbox and
/// time travel works over those received.
final class ProbeSource: EventSource {
  private let client: ProbeClient
  private var handlers: [(Event) -> Void] = []
  private var received: [Event] = []
  private var status: ProbeClient.Status = .connecting
  private var dropped = 0
  /// When the newest event arrived: the clock runs on from its time while the program lives.
  private var lastArrival: (time: Double, at: Date)?

  init(client: ProbeClient) { self.client = client }

  func subscribe(_ handler: @escaping (Event) -> Void) {
    for e in received { handler(e) }
    handlers.append(handler)
  }

  /// What the header says: live or disconnected, read-only, sampled, dropped events.
  var label: String? {
    var parts: [String]
    switch status {
    case .connecting: parts = ["connecting"]
    case .connected(let h):
      parts = ["live"]
      if !h.control { parts.append("read-only") }
      parts.append("states sampled \(Int(h.sampleInterval * 1000))ms")
    case .disconnected: parts = ["disconnected"]
    case .failed(let why): parts = ["error: \(why)"]
    }
    if dropped > 0 { parts.append("\(dropped) dropped") }
    return parts.joined(separator: ", ")
  }

  /// The program's clock (seconds since its probe started): the newest event's time plus the wall
  /// time since it arrived, stopped when the program is gone.
  var now: Double {
    guard let last = lastArrival else { return 0 }
    guard case .connected = status else { return last.time }
    return last.time + Date().timeIntervalSince(last.at)
  }
  /// A program can always do more: the board keeps its clock running.
  var isIdle: Bool { false }

  func advance(by seconds: Double) { pull() }
  func step() -> Bool {
    pull()
    return true
  }

  var commandRefusal: String? {
    switch status {
    case .connected(let h) where !h.control:
      "read-only: the program did not enable control when it started its probe"
    case .connected: nil
    default: "not connected to the program: nothing to steer"
    }
  }

  func perform(_ command: Command) -> CommandOutcome {
    if let why = commandRefusal { return .rejected(why) }
    // The program applies it and reports the command and its effects as events.
    return client.send(command) ? .applied : .rejected("the program did not take the command")
  }

  func schedule(_ command: Command, at time: Double) {}

  private func pull() {
    let mail = client.drain()
    status = mail.status
    dropped = mail.dropped
    if let newest = mail.events.last { lastArrival = (newest.time, Date()) }
    for e in mail.events {
      received.append(e)
      for h in handlers { h(e) }
    }
  }
}
