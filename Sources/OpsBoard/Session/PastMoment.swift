import OpsEngine
import OpsEvents

/// An earlier moment the paused board shows (time travel): the first `position` events folded, with
/// the clock at `time` (a second step can land between events).
public struct PastMoment: Sendable {
  public let position: Int
  public let time: Double
  public let model: BoardModel
}

/// Where Space resumes live play from while the past is shown.
public enum ResumePoint: String, Sendable {
  /// Back to the present, as if time travel had never happened.
  case present
  /// From the moment shown: the runtime is rebuilt and the future played again from there.
  case here
}

/// A key command as sent, so a rebuilt runtime can be given the same commands at the same times.
struct RecordedCommand: Sendable {
  /// Events revealed before it was sent.
  let after: Int
  let time: Double
  let command: Command
}
