import OpsEngine
import OpsEvents

/// Quiz mode: before the board moves on (a `.` step, or continuing from a teaching moment) it asks what
/// will happen; the answer is revealed by moving on to it, explained with the engine's cause, and
/// scored. Questions come from a look-ahead copy of the run (see `Lookahead`), never from the scenario.
extension BoardSession {
  public var quizEnabled: Bool { quiz.enabled }
  public var quizScore: (right: Int, asked: Int) { (quiz.right, quiz.asked) }

  /// The question on screen, if one waits for an answer.
  public var quizQuestion: QuizQuestion? {
    guard ui.view == .quiz, ui.views.quiz.phase == .asking else { return nil }
    return ui.views.quiz.question
  }
  /// The question whose answer is on screen, with the choice picked.
  public var quizReveal: (question: QuizQuestion, picked: Int)? {
    guard ui.view == .quiz, case .revealed(let p) = ui.views.quiz.phase,
      let q = ui.views.quiz.question
    else { return nil }
    return (q, p)
  }

  /// `play --quiz`, and the toggle key.
  public func setQuiz(_ on: Bool) {
    quiz.enabled = on
    if !on, ui.view == .quiz { ui.view = ui.views.quiz.returnView }
  }

  func toggleQuiz() {
    setQuiz(!quiz.enabled)
    let step = keyMap.keyLabel(.step) ?? "."
    let moment = keyMap.keyLabel(.nextMoment) ?? "m"
    ui.status = StatusMessage(
      quiz.enabled
        ? "quiz on: \(step) and \(moment) at a moment ask what happens next before moving on"
        : "quiz off: score \(quiz.right)/\(quiz.asked)")
  }

  /// While a question waits for its answer the clock and time travel wait too: true (with a message)
  /// for any key that would move them.
  func quizHolds(_ action: BoardAction) -> Bool {
    guard quizQuestion != nil,
      ![.quit, .help, .redraw, .toggleQuiz, .toggleTheme, .answerQuiz, .closeQuiz, .back]
        .contains(action)
    else { return false }
    ui.status = StatusMessage("answer first: ↑↓ choose, Enter answers, Esc puts it away")
    return true
  }

  /// Called for `.` and for continuing from a moment. True when the quiz took the key: it asked a
  /// question, or one is waiting for its answer.
  func quizTakes(_ action: BoardAction) -> Bool {
    guard quiz.enabled, past == nil else { return false }
    if ui.view == .quiz {
      if ui.views.quiz.phase == .asking {
        ui.status = StatusMessage("answer first: ↑↓ choose, Enter answers, Esc puts it away")
        return true
      }
      closeQuiz()
    }
    if action != .step {
      // At a moment: one question per moment, then the key plays on.
      guard let m = currentMoment, quiz.askedAtMoment != m.index else { return false }
      guard ask() else { return false }
      quiz.askedAtMoment = m.index
      return true
    }
    return ask()
  }

  /// Looks ahead and shows a question. False when there is nothing to ask (the caller moves on).
  private func ask() -> Bool {
    guard source is VirtualScenarioSource else {
      ui.status = StatusMessage("the quiz looks ahead in a scenario: this source cannot", .rejected)
      return false
    }
    guard
      let future = Lookahead.future(of: makeSource, commands: keyCommands, present: log)
    else {
      ui.status = StatusMessage("the quiz cannot look ahead here: moving on", .rejected)
      return false
    }
    var maker = QuizMaker(
      model: liveModel, shown: log.count, future: future, exclusivity: exclusivityByOperation())
    maker.onScreen = currentMoment?.moment.claims ?? []
    maker.horizon = eventsBeforeNextMoment(future)
    maker.lastRevealed = quiz.lastRevealed
    guard let question = maker.question(turn: quiz.asked) else { return false }
    setPaused(true)
    var view = QuizView()
    view.question = question
    // Closing it returns to the view it was asked in (a moment's caption, the presenter, the log).
    view.returnView = ui.view
    view.overPresenter = isPresenting
    view.score = quiz
    ui.views.quiz = view
    ui.view = .quiz
    ui.status = StatusMessage("predict: ↑↓ choose, Enter answers (1-\(question.choices.count) too)")
    return true
  }

  /// Enter (or a number) on the question; on the reveal, closes it.
  func answerQuiz(_ input: KeyInput) {
    var view = ui.views.quiz
    guard let q = view.question else { return }
    guard view.phase == .asking else {
      closeQuiz()
      return
    }
    var picked = view.selection
    if case .character(let c) = input, let n = c.wholeNumberValue {
      guard (1...q.choices.count).contains(n) else {
        ui.status = StatusMessage("there are \(q.choices.count) choices", .rejected)
        return
      }
      picked = n - 1
    }
    quiz.asked += 1
    if q.isRight(picked) { quiz.right += 1 }
    quiz.lastRevealed = q
    // A question asked at a moment used its caption up: after the reveal the board (or the next
    // moment the reveal reaches) is shown, never the old caption under a later clock.
    if view.returnView == .moment { view.returnView = momentReturnView }
    // Reveal by moving on until the answer is on the board.
    let before = log.count
    while log.count < q.revealAt, revealOne() != nil {}
    // The reveal may have reached a moment: its caption follows the reveal.
    if ui.view == .moment { view.returnView = .moment }
    view.phase = .revealed(picked: picked)
    view.changes = log[before...].filter { !$0.isBookkeeping }.map(\.line)
    view.score = quiz
    ui.views.quiz = view
    ui.view = .quiz
    select(operation: q.focus)
    ui.status = StatusMessage(
      q.isRight(picked)
        ? "right: score \(quiz.right)/\(quiz.asked)"
        : "not this time: score \(quiz.right)/\(quiz.asked)",
      q.isRight(picked) ? .applied : .rejected)
  }

  /// Esc: the question goes away unscored, or the reveal closes.
  func closeQuiz() {
    let view = ui.views.quiz
    guard ui.view == .quiz else { return }
    if view.phase == .asking {
      ui.status = StatusMessage("question put away: not scored")
    }
    ui.view = view.returnView
  }

  /// How many of `future` can be shown before the next moment is reached (the tracker's rules on a
  /// copy): a reveal never passes a moment, so no caption is shown late under an earlier time.
  private func eventsBeforeNextMoment(_ future: [Event]) -> Int {
    var tracker = moments
    let before = tracker.reached.count
    for (i, e) in future.enumerated() {
      if let t = tracker.nextTime, e.time > t + 1e-9 { return i }
      _ = tracker.observe(e)
      let stepEnds =
        i + 1 == future.count || future[i + 1].time > e.time + 1e-9
        || {
          if case .command = future[i + 1].kind { return true }
          return false
        }()
      if stepEnds { _ = tracker.observeStepEnd() }
      if tracker.reached.count > before { return i + 1 }
    }
    return .max
  }

  /// Which exclusivity categories each operation was added with.
  private func exclusivityByOperation() -> [String: [String]] {
    var map: [String: [String]] = [:]
    for entry in log {
      if case .operationAdded(let op, _, _, _, _, _, _, let categories, _) = entry.event.kind {
        map[op] = categories
      }
    }
    return map
  }
}
