import OpsEngine

/// The virtual scenario as an event source: a deterministic `VirtualRuntime`, so the board can step
/// it, advance its clock and rebuild it for time travel.
public final class VirtualScenarioSource: EventSource {
  public let runtime: VirtualRuntime

  public init(_ runtime: VirtualRuntime) { self.runtime = runtime }

  public func subscribe(_ handler: @escaping (Event) -> Void) { runtime.subscribe(handler) }
  public var label: String? { nil }
  public var now: Double { runtime.now }
  public var isIdle: Bool { runtime.isIdle }
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
