import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// The HTML handout's quiz is the board's: `HandoutQuiz` asks, at each moment, what the board asks
/// when docs/WORKSHOP.md's plan is played (quiz on, `m`, the right answer), and it stops where
/// `MomentRun` (what the handout places its moments by) stops.
@Suite struct HandoutQuizTests {
  @Test(
    arguments: Catalog.all.filter { !$0.moments.isEmpty && $0.operations.count < 200 }.map(\.id))
  func theHandoutAsksWhatTheBoardAsks(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let stops = HandoutQuiz.play(
      BoardScenario(
        title: scenario.title, notes: scenario.notes, moments: scenario.playMoments,
        makeRuntime: { scenario.makeRuntime() }))
    let plan = WorkshopDocTests.played(name)
    #expect(stops.map { $0.moment + 1 } == plan.map(\.moment))
    #expect(stops.map { $0.question?.prompt ?? "—" } == plan.map(\.question))
    #expect(
      stops.map { s in
        s.question.map { q in q.accepted.map { q.choices[$0] }.joined(separator: " or ") } ?? "—"
      }
        == plan.map(\.answer))
    let engine = MomentRun.play(scenario.makeRuntime(), moments: scenario.playMoments).stops
    #expect(stops.map(\.moment) == engine.map(\.moment))
    #expect(stops.map(\.seq) == engine.map(\.seq))
  }
}
