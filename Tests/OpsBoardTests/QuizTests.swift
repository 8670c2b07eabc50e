import OpsEngine
import OpsEvents
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

/// Whether what the run did after `from` is the question's revealed answer, and every choice the
/// run made true is accepted. Read from the board's own log, not from the look-ahead that made it.
func runAgrees(_ q: QuizQuestion, _ log: [LogEntry], from: Int) -> Bool {
  let rights = Set(q.accepted.map { q.choices[$0] })
  let events = log[from...].map(\.event)
  func started(_ e: Event) -> String? {
    if case .state(let op, _, .executing, _) = e.kind { return op }
    return nil
  }
  func finishing(_ name: String) -> StateCause? {
    for e in events {
      if case .state(name, _, .finishing, let cause) = e.kind { return cause }
    }
    return nil
  }
  switch q.kind {
  case .nextStart:
    guard let first = events.firstIndex(where: { started($0) != nil }) else {
      return rights == [QuizMaker.noneOfThem]
        && events.contains { if case .command = $0.kind { true } else { false } }
    }
    if rights == [QuizMaker.noneOfThem] {
      return events[..<first].contains { if case .command = $0.kind { true } else { false } }
    }
    // Right: the first operation each queue started at that instant (a queue starts its own in
    // its order; between queues nothing is ordered).
    let instant = events[first].time
    var firsts: [String: String] = [:]
    for e in events where abs(e.time - instant) < 1e-9 {
      if case .state(let op, _, .executing, .started(let queue, _, _, _)) = e.kind,
        firsts[queue] == nil
      {
        firsts[queue] = op
      }
    }
    return Set(q.choices).intersection(firsts.values) == rights
  case .nextState(let name):
    for e in events {
      if case .state(name, _, let to, _) = e.kind { return rights == [to.rawValue] }
    }
    return false
  case .cancelledRuns(let name):
    for e in events {
      if case .state(name, _, let to, _) = e.kind, to >= .executing {
        return (to == .executing) == (q.answer == 0)
      }
    }
    return false
  case .lock(let category):
    for e in events {
      if case .exclusivityAcquired(let op, category) = e.kind { return rights == [op] }
    }
    return false
  case .cancelledStops(let name):
    switch finishing(name) {
    case .finishedAtOnce: return q.answer == 0
    case .noticedCancel: return q.answer == 1
    case .ranDespiteCancel: return q.answer == 2
    default: return false
    }
  case .suspendedRuns(let name):
    guard case .workReturned = finishing(name) else { return false }
    return q.answer == 1
  case .readyStarts(let name):
    for e in events {
      if case .state(name, .ready, .executing, _) = e.kind {
        let now = abs(e.time - (log[from - 1].event.time)) < 1e-9
        return now == (q.answer == 0)
      }
    }
    return false
  }
}

/// Steps a scenario in quiz mode, answering every question, and checks each revealed answer against
/// the run. Every few questions a key command changes the run, so the look-ahead must follow it.
private func quizThrough(_ s: BoardSession, maxQuestions: Int = 40, steering: Bool = true)
  -> [QuizQuestion]
{
  var asked: [QuizQuestion] = []
  var steps = 0
  while asked.count < maxQuestions, steps < 2000, !s.isOver {
    steps += 1
    // Close a caption first: with its claims on screen, the questions they answer are not asked.
    if s.currentMoment != nil { press(s, .escape) }
    let before = s.log.count
    press(s, .character("."))
    guard let q = s.quizQuestion else { continue }
    #expect(q.choices.count >= 2 && q.choices.count <= QuizMaker.maxChoices)
    // Alternate right and wrong answers, so both reveals are exercised.
    press(s, asked.count % 2 == 0 ? .enter : .character("2"))
    #expect(s.quizReveal?.question == q)
    #expect(s.log.count >= q.revealAt, "the reveal shows the answer")
    #expect(runAgrees(q, s.log, from: before), "\(s.title): \(q.prompt) → \(q.choices[q.answer])")
    asked.append(q)
    if steering, asked.count % 5 == 3,
      let op = s.model.operations.first(where: { $0.state < .executing })
    {
      press(s, .escape)
      s.select(operation: op.name)
      press(s, .character("c"))
    }
  }
  return asked
}

@Suite("Quiz: predict, then reveal")
struct QuizTests {
  @Test(arguments: Catalog.names)
  func everyRevealedAnswerIsWhatTheRunDoes(_ name: String) {
    let s = builtInSession(name)
    s.setQuiz(true)
    let asked = quizThrough(s, maxQuestions: name == "stress" ? 3 : 40)
    #expect(!asked.isEmpty, "\(name): no question asked")
    let (right, total) = s.quizScore
    #expect(total == asked.count)
    #expect(right <= total)
  }

  @Test func everyKindOfQuestionComesUpInTheBuiltIns() {
    var kinds = Set<String>()
    for name in Catalog.names where name != "stress" {
      let s = builtInSession(name)
      s.setQuiz(true)
      for q in quizThrough(s) {
        switch q.kind {
        case .nextStart: kinds.insert("start")
        case .nextState: kinds.insert("state")
        case .cancelledRuns: kinds.insert("cancelled")
        case .lock: kinds.insert("lock")
        case .cancelledStops: kinds.insert("stops")
        case .suspendedRuns: kinds.insert("suspended")
        case .readyStarts: kinds.insert("ready")
        }
      }
    }
    // The tour played as scripted, its captions closed: the suspension's question comes up there
    // (at its moment the caption's claims say its answer).
    let tour = builtInSession("tour")
    tour.setQuiz(true)
    for q in quizThrough(tour, steering: false) {
      if case .suspendedRuns = q.kind { kinds.insert("suspended") }
    }
    #expect(kinds == ["start", "state", "cancelled", "lock", "stops", "suspended", "ready"])
  }

  @Test func atEachMomentTheQuizAsksBeforePlayingOn() {
    let scenario = Catalog.named("tour")!
    let s = momentSession(scenario, paused: false)
    s.setQuiz(true)
    var questions = 0
    for _ in 0..<200 where !s.isOver {
      if let q = s.quizQuestion {
        let before = s.log.count
        press(s, .enter)
        #expect(runAgrees(q, s.log, from: before), "\(q.prompt)")
        questions += 1
        press(s, .enter)  // closes the reveal
      } else if s.currentMoment != nil {
        press(s, .character("m"))
      } else {
        s.advance(by: 0.25)
      }
    }
    #expect(questions >= scenario.moments.count - 1, "one question at each moment")
    #expect(s.reachedMoments.count == scenario.moments.count)
  }

  /// Plays a scenario with its moments in quiz mode, answering each question with `pick`; returns
  /// each question with the moment it was asked at.
  private func quizAtMoments(
    _ name: String, pick: (QuizQuestion) -> Int = { $0.answer }
  ) -> [(moment: Int, question: QuizQuestion, right: Bool)] {
    let scenario = Catalog.named(name)!
    let s = momentSession(scenario, paused: false)
    s.setQuiz(true)
    var asked: [(Int, QuizQuestion, Bool)] = []
    for _ in 0..<400 where !s.isOver || s.currentMoment != nil || s.quizQuestion != nil {
      if let q = s.quizQuestion {
        let moment = s.reachedMoments.last ?? -1
        let (right, _) = s.quizScore
        let before = s.log.count
        press(s, .character(Character("\(pick(q) + 1)")))
        #expect(runAgrees(q, s.log, from: before), "\(name): \(q.prompt)")
        asked.append((moment, q, s.quizScore.right > right))
        press(s, .enter)
      } else if s.currentMoment != nil {
        press(s, .character("m"))
      } else {
        s.advance(by: 0.25)
      }
    }
    return asked
  }

  @Test func operationsThatStartAtOneInstantAreAllRightAnswers() throws {
    // Tour moment 1: decode (images) and fetchComments (network) both start at 4.000.
    let asked = quizAtMoments("tour") { q in
      q.choices.firstIndex(of: "fetchComments") ?? q.answer
    }
    let first = try #require(asked.first { $0.question.kind == .nextStart })
    #expect(
      first.question.accepted.map { first.question.choices[$0] }.sorted() == [
        "decode", "fetchComments",
      ])
    #expect(first.right)
  }

  @Test(arguments: Catalog.names.filter { $0 != "stress" })
  func noQuestionAtAMomentIsAnsweredByItsCaptionOrTheLastReveal(_ name: String) {
    let scenario = Catalog.named(name)!
    var last: QuizQuestion?
    for (moment, q, _) in quizAtMoments(name) {
      if let last { #expect(last != q, "\(name): asked twice: \(q.prompt)") }
      last = q
      guard moment >= 0 else { continue }
      for claim in scenario.moments[moment].claims.map(\.claim) {
        switch (q.kind, claim) {
        case (.cancelledRuns(let o), .operationStartsAt(let c, _)),
          (.nextState(let o), .operationReadyAt(let c, _)),
          (.nextState(let o), .operationStartsAt(let c, _)):
          #expect(o != c, "\(name) moment \(moment + 1): the caption answers \(q.prompt)")
        default: break
        }
      }
    }
  }

  @Test func whenNothingCanStartWithoutACommandNoneOfThemIsTheAnswer() throws {
    let asked = quizAtMoments("deadlock")
    let first = try #require(asked.first)
    #expect(first.question.kind == .nextStart)
    #expect(first.question.choices[first.question.answer] == QuizMaker.noneOfThem)
    #expect(first.right)
  }

  @Test func aRevealNeverPassesAMoment() {
    // cancellation: its first start after 0s is at 6s, past the moments at 1s, 2.5s, 3s and 4s.
    let scenario = Catalog.named("cancellation")!
    let s = momentSession(scenario, paused: true)
    s.setQuiz(true)
    var checked = 0
    for _ in 0..<300 where !s.isOver {
      if s.quizQuestion != nil {
        let t0 = s.model.now
        press(s, .enter)
        #expect(s.model.now >= t0)
        if let m = s.currentMoment {
          #expect(m.index == s.reachedMoments.last)
        }
        checked += 1
        press(s, .enter)
      } else if s.currentMoment != nil {
        press(s, .character("m"))
      } else {
        press(s, .character("."))
      }
      if let m = s.currentMoment, case .time(let t) = m.moment.trigger {
        #expect(abs(s.model.now - t) < 1e-9)
      }
      if let m = s.currentMoment, case .action(let ordinal) = m.moment.trigger {
        let times = scenario.actions.map(\.at).sorted()
        #expect(abs(s.model.now - times[ordinal]) < 1e-9, "moment \(m.index + 1) shown late")
      }
    }
    #expect(checked > 0)
  }

  @Test func theHeaderKeepsScoreAndTheQuestionHoldsTheClock() {
    let s = builtInSession("tour")
    press(s, .character("Q"))
    #expect(s.quizEnabled)
    #expect(screenText(s).contains("quiz 0/0"))
    press(s, .character("."))
    let q = try! #require(s.quizQuestion)
    let text = screenText(s)
    #expect(text.contains("Predict · score 0/0"), "\(text)")
    #expect(text.contains(q.choices[0]))
    // Space would play on: the question holds the clock until it is answered.
    let shown = s.log.count
    press(s, .character(" "))
    s.tick(elapsed: 5)
    #expect(s.log.count == shown)
    #expect(s.status?.text.contains("answer first") == true)
    press(s, .character(Character("\(q.answer + 1)")))
    #expect(s.quizScore == (1, 1))
    let revealed = screenText(s, 120, 40)
    #expect(revealed.contains("Right: \(q.choices[q.answer])"), "\(revealed)")
    #expect(revealed.contains("quiz 1/1"))
    press(s, .escape, .character("Q"))
    #expect(!s.quizEnabled)
    press(s, .character("."))
    #expect(s.quizQuestion == nil)
  }

  @Test func lookingAheadLeavesThePresentAlone() {
    let s = builtInSession("dependencies")
    s.advance(by: 3)
    let before = s.log.map(\.event)
    let runtimeEvents = s.runtime.eventCount
    s.setQuiz(true)
    press(s, .character("."))
    #expect(s.quizQuestion != nil)
    #expect(s.log.map(\.event) == before)
    #expect(s.runtime.eventCount == runtimeEvents)
  }

  @Test func theQuestionAndTheRevealAt80x24() {
    let s = builtInSession("tour")
    s.advance(by: 1)
    press(s, .character("Q"), .character("."))
    #expect(s.quizQuestion != nil)
    assertSnapshot(of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "asking")
    press(s, .down, .enter)
    #expect(s.quizReveal != nil)
    assertSnapshot(
      of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "revealed")
    // Over the presenter layout too.
    press(s, .escape, .character("P"), .character("."))
    #expect(s.quizQuestion != nil)
    let text = screenText(s, 80, 24)
    #expect(text.contains("State machine"), "\(text)")
    assertSnapshot(
      of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "presenter-asking")
  }
}

/// The rows inside the quiz's box, without its borders, joined and with single spaces.
private func quizBoxText(_ screen: String) -> (rows: [String], joined: String) {
  var rows: [String] = []
  var inside = false
  for line in screen.split(separator: "\n") {
    if line.hasPrefix("┌─ Predict") || line.hasPrefix("┌─ Revealed") {
      inside = true
    } else if inside, line.hasPrefix("└") {
      break
    } else if inside {
      rows.append(String(line.dropFirst().dropLast()))
    }
  }
  let joined = rows.joined(separator: " ").split(separator: " ").joined(separator: " ")
  return (rows, joined)
}

private func singleSpaced(_ text: String) -> String {
  text.split(separator: " ").joined(separator: " ")
}

/// Rehearsal: at 60×16 the quiz showed three of four choices (the right one hidden) and the header
/// ran into itself (`opsquiz 0/0`); at 80×24 a reveal's sentences were cut ("…the work noticed at
/// its c…") and the header lost the scenario's title.
@Suite("Quiz: the question, every choice and the reveal fit, at 60×16 and 80×24")
struct QuizFitTests {
  @Test(arguments: Catalog.names.filter { $0 != "stress" })
  func everyChoiceAndTheWholeRevealAreOnScreen(_ name: String) {
    let s = builtInSession(name)
    s.setQuiz(true)
    var asked = 0
    var steps = 0
    while asked < 12, steps < 400, !s.isOver {
      steps += 1
      press(s, .character("."))
      guard let q = s.quizQuestion else { continue }
      asked += 1
      for (w, h) in [(60, 16), (80, 24)] {
        let screen = screenText(s, w, h)
        let box = quizBoxText(screen)
        #expect(box.joined.contains(singleSpaced(q.prompt)), "\(name) \(w)x\(h):\n\(screen)")
        for (i, choice) in q.choices.enumerated() {
          #expect(
            box.joined.contains("\(i + 1) \(singleSpaced(choice))"),
            "\(name) \(w)x\(h): choice \(i + 1) \(choice):\n\(screen)")
        }
        #expect(!box.rows.contains { $0.contains("…") }, "\(name) \(w)x\(h):\n\(screen)")
      }
      press(s, asked % 2 == 0 ? .enter : .character("2"))
      guard let reveal = s.quizReveal else { continue }
      for (w, h) in [(60, 16), (80, 24)] {
        let screen = screenText(s, w, h)
        let box = quizBoxText(screen)
        #expect(
          box.joined.contains(singleSpaced(reveal.question.explanation)),
          "\(name) \(w)x\(h):\n\(screen)")
        #expect(
          box.joined.contains(singleSpaced(reveal.question.choices[reveal.question.answer])),
          "\(name) \(w)x\(h):\n\(screen)")
        // What changed is shown whole or not at all: nothing in the box is cut.
        #expect(!box.rows.contains { $0.contains("…") }, "\(name) \(w)x\(h):\n\(screen)")
      }
      press(s, .escape)
    }
    #expect(asked > 0, "\(name): no question asked")
  }

  @Test func theHeaderKeepsTheTitleAt80ColumnsAndNeverRunsIntoItselfAt60() {
    for name in Catalog.names {
      let s = builtInSession(name)
      s.setQuiz(true)
      press(s, .character("."))  // a question: quiz 0/0, and events to show
      for width in 60...100 {
        let header = String(screenLines(s, width, 24)[0])
        #expect(header.hasPrefix(" opsview │ "), "\(name) at \(width): \(header)")
        #expect(header.contains("quiz 0/0"), "\(name) at \(width): \(header)")
        #expect(header.contains(" t \(clockText(s.model.now))s"), "\(name) at \(width): \(header)")
        if width >= 80 {
          let title = s.title.prefix(20)
          #expect(header.contains(title), "\(name) at \(width): \(header)")
        }
      }
    }
  }

  @Test func theRevealOfACooperativeCancelIsWholeAt80x24() throws {
    // The tour's prefetch checks isCancelled every 0.5s: its reveal's cause is long.
    let s = builtInSession("tour")
    s.setQuiz(true)
    var seen = false
    for _ in 0..<300 where !seen && !s.isOver {
      press(s, .character("."))
      guard let q = s.quizQuestion else { continue }
      press(s, .enter)
      let screen = screenText(s, 80, 24)
      let box = quizBoxText(screen)
      #expect(box.joined.contains(singleSpaced(q.explanation)), "\(screen)")
      #expect(!box.rows.contains { $0.contains("…") }, "\(screen)")
      seen = q.explanation.contains("prefetch") || box.joined.contains("prefetch")
      press(s, .escape)
    }
    #expect(seen)
  }
}
