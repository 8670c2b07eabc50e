import OpsEngine
import Testing

@testable import OpsBoard

@Suite("BoardKeyMap: help, footer and handling read the same entries")
struct BoardKeyMapTests {
  @Test func footerItemsAreBuiltFromBindings() {
    let map = KeyMap.standard
    for view in BoardView.allCases {
      for item in map.footerItems(for: view, ascii: false) {
        let bindings = item.actions.map { map.binding(for: $0)! }
        #expect(bindings.allSatisfy { $0.footer == item.label && $0.footerViews.contains(view) })
        for b in bindings { #expect(item.keys.contains(b.keys[0].label(ascii: false))) }
      }
    }
    let board = map.footerItems(for: .board, ascii: false).map(\.text)
    #expect(board.prefix(3) == ["↑↓ move", "Space pause", ". step"])
    #expect(board.contains("+/- limit"))
    #expect(map.footerItems(for: .board, ascii: true).first?.text == "Up/Down move")
  }

  @Test func helpListsEveryBindingAndTheFooterShowsItsItems() {
    let s = photoSession()
    // Tall enough for the whole help at once.
    _ = s.handle(.character("?"))
    let help = s.render(width: 200, height: 60, ascii: false).text
    for b in s.keyMap.bindings {
      #expect(help.contains(b.keysLabel(ascii: false)), "help lacks the keys of \(b.action)")
      #expect(help.contains(String(b.description.prefix(30))), "help lacks \(b.action)")
    }
    _ = s.handle(.escape)
    let footer = s.render(width: 200, height: 60, ascii: false).text.split(separator: "\n").last!
    for item in s.keyMap.footerItems(for: .board, ascii: false) {
      #expect(footer.contains(item.text))
    }
  }

  @Test func rebindingAKeyChangesHandlingHelpAndFooterTogether() {
    let standard = KeyMap.standard.bindings
    let rebound = standard.map { b in
      b.action == .suspendResume
        ? KeyBinding(
          .suspendResume, [.key(.character("z"))], "suspend or resume (rebound)", group: b.group,
          footer: "hold")
        : b
    }
    let s = BoardSession(
      title: "Photo app", notes: "", paused: true, keyMap: KeyMap(bindings: rebound),
      makeRuntime: photoRuntime)
    _ = s.handle(.character("s"))
    #expect(!s.model.queue(named: "network")!.suspended)
    #expect(s.status?.text == "'s' does nothing here: ? shows every key")
    _ = s.handle(.character("z"))
    #expect(s.model.queue(named: "network")!.suspended)
    let footer = s.render(width: 200, height: 60, ascii: false).text.split(separator: "\n").last!
    #expect(footer.contains("z hold"))
    #expect(!footer.contains("s suspend"))
    _ = s.handle(.character("?"))
    let help = s.render(width: 200, height: 60, ascii: false).text
    #expect(help.contains("suspend or resume (rebound)"))
  }

  @Test func everyActionIsBoundOnceAndNoKeyIsBoundTwice() {
    let map = KeyMap.standard
    #expect(Set(map.bindings.map(\.action)) == Set(BoardAction.allCases))
    #expect(map.bindings.count == BoardAction.allCases.count)
    let keys = map.bindings.flatMap(\.keys)
    for (i, k) in keys.enumerated() {
      #expect(!keys[(i + 1)...].contains(k), "\(k) is bound twice")
    }
  }
}
