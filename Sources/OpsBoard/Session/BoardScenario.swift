import OpsEngine
import OpsEvents

/// What the board needs of a scenario: its words, and how to build its runtime. A restart asks for
/// it again, so an edited scenario file is read anew.
public struct BoardScenario {
  public var title: String
  public var notes: String
  /// How each operation's work was set up, for the detail view.
  public var workSettings: [String: String]
  /// Builds the runtime with the observer subscribed before its first event (setting up publishes
  /// some), so the runtime need not record every event: the board keeps its own log.
  public var makeRuntime: (_ observer: @escaping (Event) -> Void) -> VirtualRuntime
  /// Where the board pauses and shows a caption.
  public var moments: [Moment]

  /// A scenario whose runtime is built with the observer subscribed from its first event
  /// (`Scenario.makeRuntime(recording: false, observer:)`).
  public init(
    title: String, notes: String, workSettings: [String: String] = [:],
    moments: [Moment] = [],
    streaming makeRuntime: @escaping (_ observer: @escaping (Event) -> Void) -> VirtualRuntime
  ) {
    self.moments = moments
    self.title = title
    self.notes = notes
    self.workSettings = workSettings
    self.makeRuntime = makeRuntime
  }

  /// A scenario whose runtime records its events, so the board's subscription replays those
  /// published while it was set up.
  public init(
    title: String, notes: String, workSettings: [String: String] = [:],
    moments: [Moment] = [], makeRuntime: @escaping () -> VirtualRuntime
  ) {
    self.init(
      title: title, notes: notes, workSettings: workSettings, moments: moments,
      streaming: { observer in
        let runtime = makeRuntime()
        runtime.subscribe(observer)
        return runtime
      })
  }
}
