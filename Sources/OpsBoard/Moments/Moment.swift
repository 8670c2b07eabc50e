import OpsEngine

/// A teaching moment as the board sees it: when its trigger is reached, the clock pauses and the
/// caption is shown until a key continues.
public struct Moment: Sendable, Equatable {
  public enum Trigger: Sendable, Equatable {
    /// The virtual clock reaches this many seconds (after the events of that instant).
    case time(Double)
    /// The state event of `operation` into `to` is shown.
    case state(operation: String, to: OperationState)
    /// The command event of the scripted action with this ordinal (0: the first action to run).
    case action(ordinal: Int)
  }

  public var trigger: Trigger
  /// Plain text; `code` spans are drawn bold, without their backticks.
  public var caption: String

  public init(_ trigger: Trigger, caption: String) {
    self.trigger = trigger
    self.caption = caption
  }
}
