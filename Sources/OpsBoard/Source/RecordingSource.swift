import OpsEngine
import OpsEvents

/// A recording as an event source: the events of a run as they were recorded, played on their own
/// clock. It takes no commands (what happened is fixed); pausing, stepping, speed and time travel work
/// as for a scenario because the board folds the same events.
///
/// Over a `RecordingFeed`, the board starts before the recording is read: it plays the events read
/// so far, says how far the reading is, and waits for more where they end.
public final class RecordingSource: EventSource {
  private var events: [Event]
  private var delivered = 0
  private var handlers: [(Event) -> Void] = []
  public private(set) var now: Double = 0
  private let feed: RecordingFeed?
  /// How far the feed's reading is (finished for a recording given whole).
  public private(set) var reading = RecordingFeed.Progress(finished: true)

  /// `events` in recorded order; those at time 0 or earlier are there from the start, as the
  /// scenario's own setup is.
  public init(events: [Event]) {
    self.events = events
    feed = nil
    reading.events = events.count
    deliver(upTo: 0)
  }

  /// The events `feed` has now, and those it gets later as the board plays.
  public init(feed: RecordingFeed) {
    events = []
    self.feed = feed
    reading = RecordingFeed.Progress()
    refresh()
    deliver(upTo: 0)
  }

  /// Takes what the feed read since the last look.
  public func refresh() {
    guard let feed, !reading.finished else { return }
    let (more, progress) = feed.take(after: events.count)
    events += more
    reading = progress
  }

  /// Why the reading failed, once it has: the board ends with it.
  public var failure: String? { reading.failure }

  public func subscribe(_ handler: @escaping (Event) -> Void) {
    for event in events[..<delivered] { handler(event) }
    handlers.append(handler)
  }

  public var label: String? {
    guard !reading.finished else { return "recording" }
    let share = reading.size.map { $0 > 0 ? " \(min(99, reading.bytes * 100 / $0))%," : "" } ?? ""
    return "recording, reading…\(share) \(reading.events) events so far"
  }
  public var isIdle: Bool { reading.finished && delivered == events.count }
  public var nextEventTime: Double? { delivered < events.count ? events[delivered].time : nil }

  public func advance(by seconds: Double) {
    refresh()
    now += seconds
    // While the reading goes on, the clock waits at the last event read.
    if !reading.finished { now = min(now, max(events.last?.time ?? 0, 0)) }
    deliver(upTo: now)
  }

  public func step() -> Bool {
    refresh()
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
