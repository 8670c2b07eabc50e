import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// The quiz over generated scenarios: whole-second work and add times make many operations start at
/// one engine instant on different queues, limits of 0 and suspended queues make "none of them"
/// true, and time moments sit among the events.
@Suite("Quiz over random scenarios")
struct QuizPropertyTests {
  /// A small deterministic generator (the same scenarios on every run).
  struct Generator {
    var state: UInt64
    mutating func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
  }

  static func scenario(seed: UInt64) -> Scenario {
    var g = Generator(state: seed)
    let queues = 1 + g.next(3)
    var text = "queues:\n"
    for q in 0..<queues {
      let limit = ["default", "1", "2", "3", "0"][g.next(g.next(4) == 0 ? 5 : 4)]
      text += "  - {name: q\(q), maxConcurrent: \(limit), suspended: \(g.next(5) == 0)}\n"
    }
    text += "operations:\n"
    let ops = 3 + g.next(6)
    for o in 0..<ops {
      var line = "  - {name: o\(o), queue: q\(g.next(queues)), work: \(1 + g.next(3))"
      line += ", addedAt: \(g.next(3))"
      if o > 0, g.next(3) == 0 { line += ", dependencies: [o\(g.next(o))]" }
      if g.next(5) == 0 { line += ", conditions: [{mutuallyExclusive: lock}]" }
      text += line + "}\n"
    }
    text += "actions:\n"
    for q in 0..<queues {
      text += "  - {at: \(2 + g.next(4)), resume: q\(q)}\n"
      text += "  - {at: \(4 + g.next(4)), maxConcurrent: {queue: q\(q), value: 2}}\n"
    }
    text += "  - {at: \(1 + g.next(4)), cancel: o\(g.next(ops))}\n"
    text += "moments:\n"
    for _ in 0..<2 { text += "  - {at: \(1 + g.next(6)), caption: \"a moment\"}\n" }
    return try! ScenarioLoader.parse(text, file: "random.yaml", defaultID: "random\(seed)")
  }

  @Test(arguments: 1...40)
  func everyTrueChoiceIsAcceptedAndNoRevealPassesAMoment(_ seed: Int) {
    let scenario = Self.scenario(seed: UInt64(seed))
    let s = momentSession(scenario, paused: true)
    s.setQuiz(true)
    var g = Generator(state: UInt64(seed) &* 31)
    for _ in 0..<300 where !s.isOver || s.quizQuestion != nil || s.currentMoment != nil {
      if let q = s.quizQuestion {
        let before = s.log.count
        press(s, .character(Character("\(1 + g.next(q.choices.count))")))
        #expect(runAgrees(q, s.log, from: before), "seed \(seed): \(q.prompt) → \(q.accepted)")
        press(s, .enter)
      } else if let m = s.currentMoment {
        if case .time(let t) = m.moment.trigger {
          #expect(abs(s.model.now - t) < 1e-9, "seed \(seed): a moment shown late")
        }
        press(s, .character("m"))
      } else {
        press(s, .character("."))
      }
    }
  }

  @Test func theGeneratedRunsAskWhereSeveralAnswersAreTrueAndWhereNoneIs() {
    var several = 0
    var none = 0
    for seed in 1...40 {
      let s = momentSession(Self.scenario(seed: UInt64(seed)), paused: true)
      s.setQuiz(true)
      for _ in 0..<300 where !s.isOver || s.quizQuestion != nil || s.currentMoment != nil {
        if let q = s.quizQuestion {
          if q.accepted.count > 1 { several += 1 }
          if q.choices[q.answer] == QuizMaker.noneOfThem { none += 1 }
          press(s, .enter, .enter)
        } else {
          press(s, .character(s.currentMoment == nil ? "." : "m"))
        }
      }
    }
    #expect(several > 0)
    #expect(none > 0)
  }
}
