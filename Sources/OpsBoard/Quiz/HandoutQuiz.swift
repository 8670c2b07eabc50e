import OpsEngine

/// The board's quiz, asked once at each moment where the board stops (as `m` at a moment asks it in
/// quiz mode), for handouts that replay the run without the board (`opsview export --format html`).
/// The same `QuizMaker` with the same inputs: the model as the board shows it at the stop, the run's
/// events after it, the moment's claims on screen, and the reveal kept before the next stop.
public enum HandoutQuiz {
  /// `stops`: (events shown, clock) where each moment is reached, in order; `claims`: each stop's
  /// claims. Returns, for each stop that has a question, the stop's index and the question.
  public static func questions(
    events: [Event], stops: [(seq: Int, time: Double, claims: [MomentClaim])]
  ) -> [(stop: Int, question: QuizQuestion)] {
    var model = BoardModel()
    var exclusivity: [String: [String]] = [:]
    var shown = 0
    var asked: [(Int, QuizQuestion)] = []
    var last: QuizQuestion?
    for (s, stop) in stops.enumerated() {
      while shown < min(stop.seq, events.count) {
        let e = events[shown]
        if case .operationAdded(let op, _, _, _, _, _, _, let categories, _) = e.kind {
          exclusivity[op] = categories
        }
        _ = model.apply(e)
        shown += 1
      }
      model.advanceClock(to: stop.time)
      let future = Array(events[shown..<min(events.count, shown + 400)])
      var maker = QuizMaker(model: model, shown: shown, future: future, exclusivity: exclusivity)
      maker.onScreen = stop.claims
      let next = stops.dropFirst(s + 1).first { $0.seq > shown }
      maker.horizon = next.map { $0.seq - shown } ?? .max
      maker.lastRevealed = last
      if let q = maker.question(turn: asked.count) {
        asked.append((s, q))
        last = q
      }
    }
    return asked
  }
}
