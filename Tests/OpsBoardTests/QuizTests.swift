import OpsEngine
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

/// Whether what the run did after `from` is the question's revealed answer. Read from the board's
/// own log, not from the look-ahead that made the question.
private func runAgrees(_ q: QuizQuestion, _ log: [LogEntry], from: Int) -> Bool {
  let answer = q.choices[q.answer]
  for entry in log[from...] {
    switch (q.kind, entry.event.kind) {
    case (.nextStart, .state(let op, _, .executing, _)):
      return op == answer
    case (.nextState(let name), .state(let op, _, let to, _)) where op == name:
      return to.rawValue == answer
    case (.cancelledRuns(let name), .state(let op, _, let to, _))
    where op == name && to >= .executing:
      return (to == .executing) == (q.answer == 0)
    case (.lock(let category), .exclusivityAcquired(let op, let c)) where c == category:
      return op == answer
    default: continue
    }
  }
  return false
}

/// Steps a scenario in quiz mode, answering every question, and checks each revealed answer against
/// the run. Every few questions a key command changes the run, so the look-ahead must follow it.
private func quizThrough(_ s: BoardSession, maxQuestions: Int = 40) -> [QuizQuestion] {
  var asked: [QuizQuestion] = []
  var steps = 0
  while asked.count < maxQuestions, steps < 2000, !s.isOver {
    steps += 1
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
    if asked.count % 5 == 3, let op = s.model.operations.first(where: { $0.state < .executing }) {
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
        }
      }
    }
    #expect(kinds == ["start", "state", "cancelled", "lock"])
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
    let revealed = screenText(s)
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
