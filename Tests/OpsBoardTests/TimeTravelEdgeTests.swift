import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardTimeTravelEdges: the ends of time, and the selection across it")
struct TimeTravelEdgeTests {
  @Test func bracketAtTimeZeroGoesBeforeTheFirstEventLikeTheArrow() {
    let s = photoSession()
    #expect(s.log.count > 0 && s.model.now == 0)
    press(s, .character("["))
    #expect(s.status?.kind != .rejected, "\(s.status?.text ?? "")")
    #expect(s.position == 0)
    press(s, .left)
    #expect(s.status?.kind == .rejected)
    press(s, .character("["))
    #expect(s.status?.kind == .rejected)
    #expect(s.position == 0)
  }

  @Test func steppingForwardFromTheMomentShownIsTheFoldOfThatPrefix() {
    let s = builtInSession("tour")
    s.advance(by: 15)
    let events = s.log.map(\.event)
    func fresh(_ n: Int, clock: Double? = nil) -> BoardModel {
      var m = BoardModel()
      for e in events.prefix(n) { m.apply(e) }
      if let t = clock { m.advanceClock(to: t) }
      return m
    }
    s.seek(toEvent: 3)
    // → folds on from the moment shown (no checkpoint is nearer), one event at a time.
    for n in 4...40 {
      press(s, .right)
      #expect(s.position == n)
      #expect(s.model == fresh(n))
    }
    // ] lands between events with the clock on; → goes on from there to the next event.
    press(s, .character("]"))
    let landed = s.position
    #expect(s.model == fresh(landed, clock: s.model.now))
    press(s, .right)
    #expect(s.model == fresh(landed + 1))
  }

  // In the tour, fetchLikes is added at 7s.
  @Test func theSelectionSurvivesTravellingBeforeItExisted() {
    let s = builtInSession("tour")
    s.advance(by: 15)
    s.select(operation: "fetchLikes")
    for _ in 0..<10 { press(s, .character("[")) }
    #expect(s.model.operation(named: "fetchLikes") == nil)
    press(s, .character(" "))  // resume from the present
    press(s, .character(" "))  // pause again
    #expect(s.selectedOperation == "fetchLikes")
    press(s, .character("c"))
    #expect(s.status?.text.contains("no operation selected") == false, "\(s.status?.text ?? "")")
    #expect(s.status?.text.contains("fetchLikes") == true, "\(s.status?.text ?? "")")
    press(s, .character("k"))
    #expect(
      s.selectedOperation == previous(before: "fetchLikes", in: s), "k did not move one row up")
  }

  @Test func theSelectionSurvivesResumingFromBeforeItExisted() {
    let s = builtInSession("tour")
    s.advance(by: 15)
    s.select(operation: "fetchLikes")
    for _ in 0..<10 { press(s, .character("[")) }
    press(s, .character("p"), .character(" "))
    #expect(s.past == nil)
    #expect(s.model.operation(named: "fetchLikes") == nil)
    press(s, .character(" "))
    // Not there yet: c says so instead of acting on another row.
    press(s, .character("c"))
    #expect(s.status?.text.contains("fetchLikes") == true, "\(s.status?.text ?? "")")
    #expect(s.status?.kind == .rejected)
    s.advance(by: 10)
    #expect(s.selectedOperation == "fetchLikes")
    press(s, .character("k"))
    #expect(s.selectedOperation == previous(before: "fetchLikes", in: s))
  }

  @Test func withTheSelectionNotAddedYetJStartsFromTheTop() {
    let s = builtInSession("tour")
    s.advance(by: 15)
    s.select(operation: "fetchLikes")
    for _ in 0..<10 { press(s, .character("[")) }
    #expect(
      !screenLines(s).contains { $0.hasPrefix("› ") },
      "a row is highlighted for an operation not added yet")
    #expect(screenText(s).contains("fetchLikes: not added yet"))
    press(s, .character("j"))
    #expect(s.selectedOperation == s.model.operations.first?.name)
  }
}

private func previous(before name: String, in s: BoardSession) -> String? {
  let ops = s.model.operations
  return ops.firstIndex { $0.name == name }.map { ops[$0 - 1].name }
}
