/// Where a binding applies. A view's own keys win over the global ones while it is shown; while the
/// help overlay is open only its keys work.
public enum KeyScope: Hashable, Sendable {
  case global
  case view(BoardView)
  case help
}

/// The key map is data: dispatch, the help overlay and the footer all read it, so they cannot
/// disagree. Each view brings its own bindings and footer (see `ViewComponent`); `standard`
/// assembles them with the global ones.
public struct KeyMap: Sendable {
  public private(set) var scopes: [KeyScope: [KeyBinding]]
  /// Each view's footer: actions in the order shown (help and quit are pinned at the right).
  public private(set) var footers: [BoardView: [BoardAction]]

  public init(scopes: [KeyScope: [KeyBinding]], footers: [BoardView: [BoardAction]]) {
    self.scopes = scopes
    self.footers = footers
  }

  public func bindings(in scope: KeyScope) -> [KeyBinding] { scopes[scope] ?? [] }

  /// What an input does in a view: the view's binding, else the binding of the view `beneath` it
  /// (the board or the presenter under a moment's caption), else the global one; with help open,
  /// only help's. Returns the scope it was found in, too.
  public func binding(
    for input: KeyInput, in view: BoardView, beneath: BoardView? = nil, helpOpen: Bool = false
  )
    -> (binding: KeyBinding, scope: KeyScope)?
  {
    let order: [KeyScope] =
      helpOpen ? [.help] : [.view(view)] + (beneath.map { [.view($0)] } ?? []) + [.global]
    for scope in order {
      if let b = bindings(in: scope).first(where: { $0.keys.contains { $0.matches(input) } }) {
        return (b, scope)
      }
    }
    return nil
  }

  /// The binding of an action as a view sees it (its own first, then that of the view beneath it,
  /// then the global one).
  public func binding(for action: BoardAction, in view: BoardView, beneath: BoardView? = nil)
    -> KeyBinding?
  {
    bindings(in: .view(view)).first { $0.action == action }
      ?? beneath.flatMap { b in bindings(in: .view(b)).first { $0.action == action } }
      ?? bindings(in: .global).first { $0.action == action }
  }

  /// The views whose own keys include this input, for "works in …" messages.
  public func views(binding input: KeyInput) -> [(view: BoardView, binding: KeyBinding)] {
    ViewRegistry.all.compactMap { type in
      bindings(in: .view(type.id)).first { $0.keys.contains { $0.matches(input) } }.map {
        (type.id, $0)
      }
    }
  }

  /// The primary key of an action in a view, as help and messages show it.
  public func keyLabel(_ action: BoardAction, in view: BoardView = .board, ascii: Bool = false)
    -> String?
  {
    binding(for: action, in: view)?.keys.first?.label(ascii: ascii)
  }

  /// The footer's items for a view; adjacent bindings with the same word merge (`+/- limit`).
  public func footerItems(for view: BoardView, beneath: BoardView? = nil, ascii: Bool)
    -> [FooterItem]
  {
    let pinned = bindings(in: .global).filter(\.pinned).map(\.action)
    var items: [FooterItem] = []
    for action in (footers[view] ?? []) + pinned {
      guard let b = binding(for: action, in: view, beneath: beneath), let word = b.footer,
        let key = b.keys.first
      else { continue }
      let label = key.label(ascii: ascii)
      if let last = items.last, last.label == word {
        // Arrow pairs read as one key (`↑↓`); anything else is separated (`+/-`).
        let arrows = "←↑→↓".contains(label) && last.keys.allSatisfy { "←↑→↓".contains($0) }
        items[items.count - 1] = FooterItem(
          keys: last.keys + (arrows ? "" : "/") + label, label: word,
          actions: last.actions + [b.action], pinned: last.pinned || b.pinned)
      } else {
        items.append(FooterItem(keys: label, label: word, actions: [b.action], pinned: b.pinned))
      }
    }
    return items
  }

  /// The same map with an action bound to other keys, wherever it is bound.
  public func rebinding(
    _ action: BoardAction, to keys: [KeyPattern], description: String? = nil,
    footer: String? = nil
  ) -> KeyMap {
    var copy = self
    for (scope, list) in scopes {
      copy.scopes[scope] = list.map {
        $0.action == action ? $0.rebound(keys, description: description, footer: footer) : $0
      }
    }
    return copy
  }

  /// The global keys, each view's opener and own keys and footer, and help's keys.
  public static let standard: KeyMap = {
    var scopes: [KeyScope: [KeyBinding]] = [.help: HelpOverlay.bindings]
    var global = GlobalKeys.bindings
    var footers: [BoardView: [BoardAction]] = [:]
    for type in ViewRegistry.all {
      if let opener = type.opener { global.append(opener) }
      scopes[.view(type.id)] = type.bindings
      footers[type.id] = type.footer
    }
    scopes[.global] = global
    return KeyMap(scopes: scopes, footers: footers)
  }()
}
