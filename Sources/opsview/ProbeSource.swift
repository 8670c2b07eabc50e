import Foundation
import OpsBoard
import OpsEngine
import OpsEvents
import OpsProbe

/// A running program as the board's event source: the events its probe sent, on the wall clock.
/// Pausing the board pauses the view, not the program: events wait in the client's mailbox and
/// time travel works over those received. When the program restarts (a new run), the board starts
/// again over the new run's events; the previous run's are no longer shown.
final class ProbeSource: EventSource {
  private let client: ProbeClient
  private var handlers: [(Event) -> Void] = []
  /// The current run's events, for a new subscriber (the board after a restart).
  private var received: [Event] = []
  private var status: ProbeClient.Status = .connecting
  private var dropped = 0
  private var notKept = 0
  private var caughtUpAt = 0
  private var run = 0
  /// The run the client is connected to (it may have sent nothing yet).
  private var clientRun = 0
  private var newStory = false
  /// When the newest event arrived: the clock runs on from its time while the program lives.
  private var lastArrival: (time: Double, at: Date)?

  /// Told of every event received, with its program run (`attach --record`).
  var onReceive: ((Event, Int) -> Void)?
  /// What the recorder has to say in the header (runs it no longer records).
  var recordingNote: (() -> String?)?

  init(client: ProbeClient) { self.client = client }

  func subscribe(_ handler: @escaping (Event) -> Void) {
    for e in received { handler(e) }
    handlers.append(handler)
  }

  var isLive: Bool { true }
  var missedEvents: Bool { caughtUpAt > 0 || dropped > 0 }

  func takeNewStory() -> Bool {
    defer { newStory = false }
    return newStory
  }

  /// What the header says: live or disconnected, read-only, sampled, dropped events, a restart.
  var label: String? {
    var parts: [String]
    let following = client.target.programName.map { " for \($0)" } ?? ""
    switch status {
    case .connecting: parts = ["waiting\(following)"]
    case .connected(let h):
      parts = [clientRun > 1 ? "live (reconnected: run \(clientRun), pid \(h.pid))" : "live"]
      if !h.control { parts.append("read-only") }
      parts.append("states sampled \(Int(h.sampleInterval * 1000))ms")
    case .disconnected:
      parts = ["disconnected" + (following.isEmpty ? "" : ", waiting\(following) to restart")]
    case .ended:
      // The program stopped its probe (or exited) after a last sample: this is how it ended.
      parts = ["ended" + (following.isEmpty ? "" : ", waiting\(following) to restart")]
    case .failed(let why): parts = ["error: \(why)"]
    case .refused(let why): parts = ["refused: \(why)"]
    }
    if caughtUpAt > 0 {
      // A snapshot: the states are the program's, the steps up to them were not seen.
      parts.append("caught up at event \(caughtUpAt): earlier steps seen by sampling")
    }
    if dropped > 0 { parts.append("\(dropped) dropped") }
    if notKept > 0 {
      parts.append(
        "\(notKept) more not shown (the viewer keeps \(ProbeClient.maxEventsPerRun) events of a run)"
      )
    }
    if let note = recordingNote?() { parts.append(note) }
    return parts.joined(separator: ", ")
  }

  /// The stream broke the protocol: the board should end with this message.
  var failure: String? {
    if case .failed(let why) = status { why } else { nil }
  }

  /// The program refused this viewer: the board ends with this message.
  var refusal: String? {
    if case .refused(let why) = status { why } else { nil }
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

  /// A confirmed `C`: the program cancels only the operations named, those still unfinished.
  func cancel(named operations: [String], in queue: String) -> CommandOutcome {
    if let why = commandRefusal { return .rejected(why) }
    return client.send(.cancelAll(queue: queue), operations: operations)
      ? .applied : .rejected("the program did not take the command")
  }

  func schedule(_ command: Command, at time: Double) {}

  /// Reads what arrived without moving the board on (the board keeps it until it is shown).
  func refresh() { pull() }

  private func pull() {
    let mail = client.drain()
    status = mail.status
    dropped = mail.dropped
    notKept = mail.notKept
    caughtUpAt = mail.caughtUpAt
    clientRun = mail.run
    for r in mail.events {
      if r.run != run {
        // A restarted program: its story starts again; the board re-subscribes after restarting.
        if run != 0 {
          newStory = true
          received = []
          handlers = []
          lastArrival = nil
        }
        run = r.run
      }
      received.append(r.event)
      onReceive?(r.event, r.run)
      lastArrival = (r.event.time, Date())
      for h in handlers { h(r.event) }
    }
  }
}
