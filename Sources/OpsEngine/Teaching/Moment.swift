import OpsEvents

/// A teaching moment as a player sees it: when its trigger is reached, the clock pauses and the
/// caption is shown until a key continues. Its claims are what the caption states, checked against
/// the run (`MomentRun`, `opsview check`) and listed beside the caption on the board.
public struct Moment: Sendable, Equatable {
  public enum Trigger: Sendable, Equatable {
    /// The virtual clock reaches this many seconds (after the events of that instant).
    case time(Double)
    /// The state event of `operation` into `to` is shown.
    case state(operation: String, to: OperationState)
    /// The scripted action with this ordinal (0: the first action to run) has run and its effect is
    /// shown: the moment comes after the engine step that ran the command.
    case action(ordinal: Int)
  }

  public var trigger: Trigger
  /// Plain text; `code` spans are drawn bold, without their backticks.
  public var caption: String
  /// The facts the caption states.
  public var claims: [MomentClaim]

  public init(_ trigger: Trigger, caption: String, claims: [MomentClaim] = []) {
    self.trigger = trigger
    self.caption = caption
    self.claims = claims
  }
}
