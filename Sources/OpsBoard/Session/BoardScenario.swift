import OpsEngine

/// What the board needs of a scenario: its words, and how to build its runtime. A restart asks for
/// it again, so an edited scenario file is read anew.
public struct BoardScenario {
  public var title: String
  public var notes: String
  /// How each operation's work was set up, for the detail view.
  public var workSettings: [String: String]
  public var makeRuntime: () -> VirtualRuntime

  public init(
    title: String, notes: String, workSettings: [String: String] = [:],
    makeRuntime: @escaping () -> VirtualRuntime
  ) {
    self.title = title
    self.notes = notes
    self.workSettings = workSettings
    self.makeRuntime = makeRuntime
  }
}
