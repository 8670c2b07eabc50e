import OpsEngine
import OpsEvents

/// The virtual scenario as an event source: a deterministic `VirtualRuntime`, so the board can step
/// it, advance its clock and rebuild it for time travel.
public final class VirtualScenarioSource: EventSource {
  public let runtime: VirtualRuntime
  /// For a runtime built without recording: the events it published before anyone subscribed, for
  /// the first subscriber (then dropped), since the runtime keeps no copy of its events.
  private let relay: EventRelay?

  /// Over a runtime that records its events (each subscription replays them).
  public init(_ runtime: VirtualRuntime) {
    self.runtime = runtime
    relay = nil
  }

  /// Over the runtime `make` builds with the observer it is given subscribed from the first event,
  /// so the runtime need not record (`Scenario.makeRuntime(recording: false, observer:)`).
  public init(make: (_ observer: @escaping (Event) -> Void) -> VirtualRuntime) {
    let relay = EventRelay()
    self.relay = relay
    runtime = make { relay.send($0) }
  }

  /// Without recording, only the first subscriber gets the events published before it subscribed.
  public func subscribe(_ handler: @escaping (Event) -> Void) {
    if let relay { relay.subscribe(handler) } else { runtime.subscribe(handler) }
  }
  public var label: String? { nil }
  public var now: Double { runtime.now }
  public var isIdle: Bool { runtime.isIdle }
  public var nextEventTime: Double? { runtime.nextEventTime }
  public func advance(by seconds: Double) { runtime.advance(by: seconds) }
  public func step() -> Bool { runtime.step() }
  public var commandRefusal: String? { nil }
  public func perform(_ command: Command) -> CommandOutcome {
    runtime.perform(command, source: .key)
  }
  public func schedule(_ command: Command, at time: Double) {
    runtime.schedule(command, at: time, source: .key)
  }
}

/// Hands events on to subscribers, keeping those that come before the first one subscribes.
private final class EventRelay {
  private var early: [Event] = []
  private var handlers: [(Event) -> Void] = []

  func send(_ event: Event) {
    if handlers.isEmpty {
      early.append(event)
    } else {
      for handler in handlers { handler(event) }
    }
  }

  func subscribe(_ handler: @escaping (Event) -> Void) {
    let kept = early
    early = []
    for event in kept { handler(event) }
    handlers.append(handler)
  }
}
