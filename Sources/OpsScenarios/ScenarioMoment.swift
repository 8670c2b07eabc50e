import OpsEngine
import OpsEvents

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
  /// The facts the caption states, each checked against the run (`Scenario.momentProblems`).
  public var claims: [ScenarioClaim]

  public init(trigger: Trigger, caption: String, claims: [ScenarioClaim] = []) {
    self.trigger = trigger
    self.caption = caption
    self.claims = claims
  }
}

/// A claim of a moment and where it is written, so a claim that does not hold is reported at its
/// place in the file.
public struct ScenarioClaim: Sendable, Equatable {
  public var claim: MomentClaim
  /// 1-based, as in `ScenarioProblem`.
  public var line: Int?
  public var column: Int?
  /// The key path, e.g. `moments[2].expect[0].suspended`.
  public var path: String

  public init(_ claim: MomentClaim, line: Int? = nil, column: Int? = nil, path: String = "") {
    self.claim = claim
    self.line = line
    self.column = column
    self.path = path
  }
}
