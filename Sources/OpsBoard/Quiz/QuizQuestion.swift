import OpsEngine
import OpsEvents

/// A prediction the learner makes before the board moves on, with the engine's answer already known
/// (computed by running a copy of the present ahead, see `Lookahead`).
public struct QuizQuestion: Sendable, Equatable {
  /// What is asked, with what a test needs to check the answer against the run.
  public enum Kind: Sendable, Equatable {
    /// Which operation enters executing next.
    case nextStart
    /// Which state `operation` enters at its next transition.
    case nextState(operation: String)
    /// Whether the cancelled `operation` will execute (enter executing) before it finishes.
    case cancelledRuns(operation: String)
    /// Which operation acquires the `category` exclusivity lock next.
    case lock(category: String)
    /// How the cancelled, executing `operation`'s work ends: at once, at its next check, or not.
    case cancelledStops(operation: String)
    /// What the `operation` executing on a suspended queue does: it runs on.
    case suspendedRuns(operation: String)
    /// Whether the ready `operation` starts executing at this instant (ready is not executing).
    case readyStarts(operation: String)
  }

  public let kind: Kind
  public let prompt: String
  public let choices: [String]
  /// Index into `choices` of what the engine will do.
  public let answer: Int
  /// Every choice the engine makes true (several operations can start at one engine instant, and
  /// Foundation orders nothing between queues): each is scored right. Holds `answer`.
  public let accepted: [Int]
  /// How many events the board must show for the answer to be on screen.
  public let revealAt: Int
  /// Why, in the engine's words: the cause of the deciding state event.
  public let explanation: String
  /// The operation the answer is about (selected when it is revealed).
  public let focus: String

  public init(
    kind: Kind, prompt: String, choices: [String], answer: Int, accepted: [Int]? = nil,
    revealAt: Int, explanation: String, focus: String
  ) {
    self.kind = kind
    self.prompt = prompt
    self.choices = choices
    self.answer = answer
    self.accepted = accepted ?? [answer]
    self.revealAt = revealAt
    self.explanation = explanation
    self.focus = focus
  }

  public func isRight(_ picked: Int) -> Bool { accepted.contains(picked) }
}

/// The learner's score in quiz mode (the header shows it).
struct QuizScore: Sendable, Equatable {
  var enabled = false
  var right = 0
  var asked = 0
  /// The moment whose question was asked, so the next `m` plays on instead of asking again.
  var askedAtMoment: Int?
  /// The last question revealed: the next one never asks what it just showed.
  var lastRevealed: QuizQuestion?
}
