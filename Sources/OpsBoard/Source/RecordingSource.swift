import OpsEngine
import OpsEvents

/// A recording as an event source: the events of a run as they were recorded, played on their own
/// clock. It takes no commands (what happened is fixed); pausing, stepping, speed and time travel work
/// as for a scenario because the board folds the same events.
public final class RecordingSource: EventSource {
  private let events: [Event]
  private var delivered = 0
  private var handlers: [(Event) -> Void] = []
  public private(set) var now: Double = 0

  /// `events` in recorded order; those at time 0 or earlier are there from the start, as the
  /// scenario's own setup is.
  public init(events: [Event]) {
    self.events = events
    deliver(upTo: 0)
  }

  public func subscribe(_ handler: @escaping (Event) -> Void) {
    for event in events[..<delivered] { handler(event) }
    handlers.append(handler)
  }

  public var label: String? { "recording" }
  public var isIdle: Bool { delivered == events.count }
  public var nextEventTime: Double? { delivered < events.count ? events[delivered].time : nil }

  public func advance(by seconds: Double) {
    now += seconds
    deliver(upTo: now)
  }

  public func step() -> Bool {
    guard delivered < events.count else { return false }
    let event = events[delivered]
    now = max(now, event.time)
    publish(event)
    return true
  }

  public var commandRefusal: String? {
    "a recording cannot be steered: it shows what happened (use play to try a change)"
  }
  public func perform(_ command: Command) -> CommandOutcome { .rejected(commandRefusal!) }
  public func schedule(_ command: Command, at time: Double) {}

  private func deliver(upTo time: Double) {
    while delivered < events.count, events[delivered].time <= time + 1e-9 {
      publish(events[delivered])
    }
  }

  private func publish(_ event: Event) {
    delivered += 1
    for handler in handlers { handler(event) }
  }
}
