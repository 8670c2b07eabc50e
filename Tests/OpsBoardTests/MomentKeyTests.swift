import OpsEngine
import OpsEvents
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

/// The tour played to `index`'s moment (0-based), its caption on screen.
private func tour(atMoment index: Int, presenting: Bool) throws -> BoardSession {
  let s = momentSession(try #require(Catalog.named("tour")), paused: true)
  if presenting { s.present() }
  for _ in 0..<40 where s.currentMoment?.index != index {
    if s.currentMoment != nil { press(s, .character("m")) }
    s.advance(by: 100)
  }
  try #require(s.currentMoment?.index == index)
  return s
}

/// The keys that act on the board or the presenter act the same under a moment's caption, and the
/// caption stays up: never "works in the board view" while that view is on screen.
@Suite("Keys at a teaching moment act on the view under its caption")
struct MomentSteeringTests {
  /// docs/WORKSHOP.md at the tour's third moment, in the presenter: select login, press s twice.
  @Test func atMomentThreeInThePresenterSelectingLoginAndSResumeAndSuspendNetwork() throws {
    let s = try tour(atMoment: 2, presenting: true)
    for _ in 0..<20 where s.selectedOperation != "login" { press(s, .down) }
    #expect(s.selectedOperation == "login", "\(s.status?.text ?? "")")
    #expect(s.status?.kind != .rejected, "\(s.status?.text ?? "")")
    press(s, .character("s"))
    #expect(s.currentMoment?.index == 2, "the caption stays up")
    #expect(s.model.queue(named: "network")?.suspended == false)
    #expect(s.lastKeyEffect == "s — network resumed: nothing was waiting to start")
    var text = screenText(s, 80, 24)
    #expect(text.contains("Moment 3 of 4"), "\(text)")
    #expect(text.contains(" s  network resumed: nothing was waiting to start"), "\(text)")
    press(s, .character("s"))
    #expect(s.model.queue(named: "network")?.suspended == true)
    let effect = try #require(s.lastKeyEffect)
    #expect(effect.hasPrefix("s — network suspended: nothing new starts"), "\(effect)")
    text = screenText(s, 80, 24)
    #expect(text.contains("Moment 3 of 4"), "\(text)")
    let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      words.contains("fetchAvatar and fetchComments keep running"),
      "the effect line in full: \(text)")
    #expect(s.view == .moment)
    press(s, .escape)
    #expect(s.view == .presenter)
  }

  @Test func onTheBoardTheQueueAndOperationKeysActWithTheCaptionUp() throws {
    let s = try tour(atMoment: 2, presenting: false)
    let operation = s.selectedOperation
    press(s, .down)
    #expect(s.selectedOperation != operation, "↓ moves the selection")
    press(s, .up)
    #expect(s.selectedOperation == operation)
    // Tab selects the next queue, as on the board; k is up there too.
    let queue = s.selectedQueue
    press(s, .tab)
    #expect(s.selectedQueue != queue, "\(s.status?.text ?? "")")
    press(s, .backTab)
    #expect(s.selectedQueue == queue)
    press(s, .down, .character("k"))
    #expect(s.selectedOperation == operation, "k is up")
    s.select(queue: "network")
    press(s, .character("s"))
    #expect(s.model.queue(named: "network")?.suspended == false, "\(s.status?.text ?? "")")
    press(s, .character("+"))
    #expect(s.status?.kind == .applied, "\(s.status?.text ?? "")")
    press(s, .character("-"))
    #expect(s.status?.kind == .applied, "\(s.status?.text ?? "")")
    s.select(queue: "images")
    press(s, .character("*"))
    #expect(s.status?.kind != .rejected || s.status?.text.contains("works in") == false)
    s.select(operation: "resize")
    press(s, .character("c"))
    #expect(s.model.operation(named: "resize")?.cancelled == true, "\(s.status?.text ?? "")")
    press(s, .character("C"))
    #expect(s.isConfirming)
    press(s, .character("n"))
    #expect(s.currentMoment?.index == 2, "the caption stays up")
    let text = screenText(s, 80, 24)
    #expect(text.contains("Moment 3 of 4"), "\(text)")
    #expect(!text.contains("works in the board view"), "\(text)")
  }

  @Test(arguments: ["l", "g", "w", "n", "t"])
  func aViewOpenedAtAMomentReturnsToItsCaption(_ key: String) throws {
    for presenting in [false, true] {
      let s = try tour(atMoment: 1, presenting: presenting)
      press(s, .character(Character(key)))
      #expect(s.view != .moment, "\(key): \(s.status?.text ?? "")")
      press(s, .escape)
      #expect(s.view == .moment, "\(key), presenting \(presenting)")
      #expect(s.currentMoment?.index == 1)
      let text = screenText(s, 80, 24)
      #expect(text.contains("Moment 2 of 4"), "\(key): \(text)")
      #expect(text.contains("State machine") == presenting, "\(key): \(text)")
      // The opener again closes it the same way.
      press(s, .character(Character(key)), .character(Character(key)))
      #expect(s.view == .moment, "\(key) twice")
      press(s, .escape)
      #expect(s.view == (presenting ? .presenter : .board))
    }
  }

  @Test func enterThenLThenEscGoesBackToTheCaptionNotTheDetail() throws {
    let s = try tour(atMoment: 0, presenting: false)
    press(s, .enter)
    #expect(s.view == .detail)
    press(s, .character("l"))
    #expect(s.view == .log)
    press(s, .escape)
    #expect(s.view == .moment)
  }

  @Test func mFromAViewOpenedAtAMomentPlaysOnAsAtTheCaption() throws {
    let s = try tour(atMoment: 0, presenting: true)
    press(s, .character("l"), .character("m"))
    #expect(s.view == .presenter, "\(s.status?.text ?? "")")
    #expect(!s.paused)
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 1)
    press(s, .escape)
    #expect(s.view == .presenter)
  }

  @Test func pAtAMomentPutsThePresenterUnderTheCaptionAndBack() throws {
    let s = try tour(atMoment: 1, presenting: false)
    press(s, .character("P"))
    #expect(s.view == .moment)
    var text = screenText(s, 80, 24)
    #expect(text.contains("Moment 2 of 4") && text.contains("State machine"), "\(text)")
    press(s, .character("P"))
    text = screenText(s, 80, 24)
    #expect(text.contains("Moment 2 of 4") && text.contains("─ Queues"), "\(text)")
    press(s, .character("P"), .escape)
    #expect(s.view == .presenter)
  }

  @Test func helpAndTheFooterAtAMomentListTheKeysOfTheViewUnderneath() throws {
    let s = try tour(atMoment: 1, presenting: false)
    let footer = screenLines(s, 120, 30).last ?? ""
    #expect(footer.contains("↑↓ move"), "\(footer)")
    #expect(footer.contains("s suspend"), "\(footer)")
    press(s, .character("?"))
    let help = screenText(s, 200, 60)
    #expect(help.contains("On the board, under the caption"), "\(help)")
    #expect(help.contains("suspend or resume the selected queue"), "\(help)")
  }
}
