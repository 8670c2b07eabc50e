import OpsEngine

/// What the board needs of a scenario: its words, and how to build its runtime. A restart asks for
/// it again, so an edited scenario file is read anew.
public struct BoardScenario {
  public var title: String
  public var notes: String
  /// How each operation's work was set up, for the detail view.
  public var workSettings: [String: String]
  public var makeRuntime: () -> VirtualRuntime
  /// Where the board pauses and shows a caption.
  public var moments: [Moment]

  public init(
    title: String, notes: String, workSettings: [String: String] = [:],
    moments: [Moment] = [], makeRuntime: @escaping () -> VirtualRuntime
  ) {
    self.moments = moments
    self.title = title
    self.notes = notes
    self.workSettings = workSettings
    self.makeRuntime = makeRuntime
  }
}
