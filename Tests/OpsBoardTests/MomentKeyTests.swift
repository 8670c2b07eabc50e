import OpsEngine
import OpsScenarios
import Testing

@testable import OpsBoard

/// The tour, played to its fourth moment (network's limit raised to 3 at 12s), caption closed: the
/// moment held back the limit's change, so the board still says 2 until something reveals it.
private func tourAtTheRaisedLimit() throws -> BoardSession {
  let s = momentSession(try #require(Catalog.named("tour")))
  while s.currentMoment?.index != 3, s.model.now < 60 {
    if s.currentMoment != nil { press(s, .character("m")) }
    s.advance(by: 100)
  }
  #expect(s.currentMoment?.index == 3)
  press(s, .escape)
  s.select(queue: "network")
  return s
}

private func limit(_ s: BoardSession, _ queue: String) -> String? {
  s.model.queues.first { $0.name == queue }?.limitText
}

@Suite("Keys pressed at a teaching moment decide from what the moment held back")
struct MomentKeyTests {
  @Test func plusRaisesTheLimitTheScenarioJustSet() throws {
    let s = try tourAtTheRaisedLimit()
    press(s, .character("+"))
    #expect(s.status?.kind == .applied, "\(s.status?.text ?? "")")
    #expect(
      s.status?.text.hasPrefix("network maxConcurrent 3 → 4") == true, "\(s.status?.text ?? "")")
    #expect(limit(s, "network") == "4")
  }

  @Test func minusLowersTheLimitTheScenarioJustSet() throws {
    let s = try tourAtTheRaisedLimit()
    press(s, .character("-"))
    #expect(
      s.status?.text.hasPrefix("network maxConcurrent 3 → 2") == true, "\(s.status?.text ?? "")")
    #expect(limit(s, "network") == "2")
  }

  @Test func enterAtAMomentOverThePresenterShowsDetailsAndEscReturnsThroughTheMoment() throws {
    let s = momentSession(try #require(Catalog.named("tour")))
    s.present()
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 0)
    // The moment is about decode: Enter shows its details.
    press(s, .enter)
    #expect(s.view == .detail, "\(s.status?.text ?? "")")
    #expect(screenText(s).contains("decode"))
    press(s, .escape)
    #expect(s.view == .moment)
    #expect(s.currentMoment?.index == 0)
    press(s, .escape)
    #expect(s.view == .presenter)
    // And m from the caption, after the detail, also returns to the presenter.
    s.advance(by: 100)
    press(s, .enter, .escape, .character("m"))
    #expect(s.view == .presenter)
  }

  /// Found in tmux: Enter in the presenter, the clock playing, and the next moment came while the
  /// detail view was open; its caption went over the full board and Esc left the presenter.
  @Test func aMomentReachedInTheDetailViewOpenedFromThePresenterGoesOverThePresenter() throws {
    let s = momentSession(try #require(Catalog.named("tour")))
    s.present()
    s.advance(by: 100)
    press(s, .escape, .enter)
    #expect(s.view == .detail)
    press(s, .character("m"))
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 1)
    let text = screenText(s)
    #expect(text.contains("State machine"), "\(text)")
    #expect(!text.contains("─ Log"), "\(text)")
    press(s, .escape)
    #expect(s.view == .presenter)
  }
}
