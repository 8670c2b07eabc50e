import OpsEngine

/// A teaching moment: when the play reaches it, the board pauses the clock and shows its caption.
public struct ScenarioMoment: Sendable, Equatable {
  /// What makes the moment happen.
  public enum Trigger: Sendable, Equatable {
    /// The virtual clock reaches this many scenario seconds.
    case time(Double)
    /// The operation's state event into `to` is shown.
    case state(operation: String, to: OperationState)
    /// The scripted action at this index of `actions` (0-based) has run.
    case action(index: Int)
  }

  public var trigger: Trigger
  /// A sentence or two of plain text; `code` spans are shown bold without their backticks.
  public var caption: String

  public init(trigger: Trigger, caption: String) {
    self.trigger = trigger
    self.caption = caption
  }
}
