import Testing

@testable import OpsBoard

/// The type of the view a visit reaches.
private struct TypeOfView: ViewVisitor {
  func visit<View: ViewComponent>(_ view: inout View) -> BoardView { View.id }
}

@Suite("ViewStates: one typed property per view, reached by its id")
struct ViewStatesTests {
  @Test func everyRegisteredViewIsReachedByItsOwnID() {
    var states = ViewStates()
    var visitor = TypeOfView()
    for type in ViewRegistry.all {
      #expect(states.visit(type.id, &visitor) == type.id, "\(type.id) reaches another view")
    }
    #expect(states.visit(BoardView("no such view"), &visitor) == .board)
  }

  @Test func aViewKeepsItsStateWhileAnotherIsShown() {
    let s = photoSession()
    s.advance(by: 2)
    press(s, .character("l"))
    s.ui.views.log.query = "banner"
    press(s, .escape, .character("g"), .escape, .character("l"))
    #expect(s.ui.views.log.query == "banner")
  }
}
