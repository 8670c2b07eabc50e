import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardKeyMap: per-view scopes drive dispatch, help and footer alike")
struct BoardKeyMapTests {
  @Test func footerItemsAreBuiltFromBindings() {
    let map = KeyMap.standard
    for type in ViewRegistry.all {
      for item in map.footerItems(for: type.id, ascii: false) {
        let bindings = item.actions.map { map.binding(for: $0, in: type.id)! }
        #expect(bindings.allSatisfy { $0.footer == item.label })
        for b in bindings { #expect(item.keys.contains(b.keys[0].label(ascii: false))) }
      }
    }
    let board = map.footerItems(for: .board, ascii: false).map(\.text)
    #expect(board.prefix(3) == ["↑↓ move", "Space pause", ". step"])
    #expect(board.contains("+/- limit"))
    #expect(map.footerItems(for: .board, ascii: true).first?.text == "Up/Down move")
    // The log's own keys are in its footer; the board's queue keys are not.
    let log = map.footerItems(for: .log, ascii: false).map(\.text)
    #expect(log.contains("/ search") && log.contains("n/N match"))
    #expect(!log.contains { $0.contains("limit") || $0.contains("suspend") })
  }

  @Test func helpListsTheViewsKeysAndEveryGlobalOne() {
    for type in ViewRegistry.all {
      let s = photoSession()
      s.select(operation: "download")
      s.ui.view = type.id
      _ = s.handle(.character("?"))
      let help = s.render(width: 200, height: 60, ascii: false).text
      let shown = s.keyMap.bindings(in: .view(type.id)) + s.keyMap.bindings(in: .global)
      // Pages, ends and the wheel share one line; opposite keys share one too (`↑↓ kj`, `< >`).
      let seconds = Set(HelpOverlay.pairs.values)
      for b in shown
      where ![.pageUp, .pageDown, .first, .last, .wheel].contains(b.action)
        && !seconds.contains(b.action)
      {
        let keys =
          b.action == .up
          ? "↑↓ kj"
          : HelpOverlay.pairs[b.action] != nil
            ? b.keysLabel(ascii: false) + " " : b.keysLabel(ascii: false)
        #expect(help.contains(keys), "\(type.id) help lacks \(b.action)")
        #expect(
          help.contains(String(b.description.prefix(25))), "\(type.id) help lacks \(b.action)")
      }
    }
    let s = photoSession()
    let footer = s.render(width: 200, height: 60, ascii: false).text.split(separator: "\n").last!
    for item in s.keyMap.footerItems(for: .board, ascii: false) {
      #expect(footer.contains(item.text.replacingOccurrences("Space pause", "Space play")))
    }
  }

  @Test func rebindingAKeyChangesHandlingHelpAndFooterTogether() {
    let rebound = KeyMap.standard.rebinding(
      .suspendResume, to: [.char("y")], description: "suspend or resume (rebound)", footer: "hold")
    let s = BoardSession(
      title: "Photo app", notes: "", paused: true, keyMap: rebound, makeRuntime: photoRuntime)
    _ = s.handle(.character("s"))
    #expect(!s.model.queue(named: "network")!.suspended)
    #expect(s.status?.text == "'s' does nothing here: ? shows every key")
    _ = s.handle(.character("y"))
    #expect(s.model.queue(named: "network")!.suspended)
    let footer = s.render(width: 200, height: 60, ascii: false).text.split(separator: "\n").last!
    #expect(footer.contains("y hold"))
    #expect(!footer.contains("s suspend"))
    _ = s.handle(.character("?"))
    let help = s.render(width: 200, height: 60, ascii: false).text
    #expect(help.contains("suspend or resume (rebound)"))
  }

  @Test func noKeyIsBoundTwiceInAScopeAndViewsShadowGlobalsOnPurpose() {
    let map = KeyMap.standard
    var scopes: [KeyScope] = [.global, .help]
    scopes += ViewRegistry.all.map { .view($0.id) }
    for scope in scopes {
      let keys = map.bindings(in: scope).flatMap(\.keys)
      for (i, k) in keys.enumerated() {
        #expect(!keys[(i + 1)...].contains(k), "\(k) is bound twice in \(scope)")
      }
    }
    // In the log, n is the next match; everywhere else it opens the notes.
    #expect(map.binding(for: .character("n"), in: .log)?.binding.action == .nextMatch)
    #expect(map.binding(for: .character("n"), in: .board)?.binding.action.name == "open.notes")
    // With help open, only help's keys exist.
    #expect(map.binding(for: .character("s"), in: .board, helpOpen: true) == nil)
    #expect(map.binding(for: .end, in: .board, helpOpen: true)?.scope == .help)
  }

  @Test func aNewViewIsOneComponentAndItsKeysFollow() {
    // Every registered view has an id of its own and every opener a distinct key.
    let ids = ViewRegistry.all.map { $0.id }
    #expect(Set(ids).count == ids.count)
    let openers = ViewRegistry.all.compactMap { $0.opener?.keys.first }
    for (i, k) in openers.enumerated() { #expect(!openers[(i + 1)...].contains(k)) }
    #expect(ids.allSatisfy { KeyMap.standard.footers[$0] != nil })
  }
}

extension String {
  fileprivate func replacingOccurrences(_ a: String, _ b: String) -> String {
    split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
  }
}
