import OpsEngine
import OpsEvents

/// The board's quiz for handouts that replay a run without the board (`opsview export --format
/// html`): a board is played as docs/WORKSHOP.md's plan plays it (quiz on, `m` at each moment, the
/// engine's answer given, the reveal closed), and the question asked at each moment is kept. So a
/// handout asks exactly what the board asks, with the same accepted answers (WorkshopDocTests checks
/// the plan against the board).
public enum HandoutQuiz {
  /// A moment as the board showed it in the plan: where, and the question `m` asked there (nil: none).
  public struct Stop: Sendable, Equatable {
    /// Index into the scenario's moments.
    public let moment: Int
    /// The events shown when it was reached, and the clock.
    public let seq: Int
    public let time: Double
    public var question: QuizQuestion?
  }

  /// Plays `scenario` (its runtime must record, see `BoardScenario`) on a board, paused, to its end.
  /// `limit` bounds the keys and ticks, for a run that never ends.
  public static func play(_ scenario: BoardScenario, limit: Int = 20_000) -> [Stop] {
    guard !scenario.moments.isEmpty else { return [] }
    let s = BoardSession(scenario, paused: true)
    s.setQuiz(true)
    var stops: [Stop] = []
    var steps = 0
    while steps < limit, !s.isOver || s.currentMoment != nil || s.quizQuestion != nil {
      steps += 1
      if let q = s.quizQuestion {
        if !stops.isEmpty { stops[stops.count - 1].question = q }
        _ = s.handle(.character(Character("\(q.answer + 1)")))
        _ = s.handle(.enter)
      } else if let m = s.currentMoment, stops.last?.moment != m.index {
        stops.append(Stop(moment: m.index, seq: s.log.count, time: s.model.now, question: nil))
      } else if s.currentMoment != nil || s.paused {
        _ = s.handle(.character("m"))
      } else {
        s.advance(by: 0.25)
      }
    }
    return stops
  }
}
