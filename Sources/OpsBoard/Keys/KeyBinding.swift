/// One entry of the key map: the keys, what they do, and how help and the footer show them.
public struct KeyBinding: Sendable {
  /// Help's headings for the keys that work everywhere; a view's own keys are listed under its name.
  public enum Group: String, Sendable, CaseIterable {
    case select = "Select"
    case engine = "Change the engine (logged as commands)"
    case clock = "Clock"
    case travel = "Time travel (paused)"
    case views = "Views"
    case other = "Other"
  }

  public let action: BoardAction
  /// The first key is the primary one; the rest are alternatives.
  public let keys: [KeyPattern]
  public let description: String
  public let group: Group
  /// The footer's word for it, if the footer shows it.
  public let footer: String?
  /// Kept at the right end of the footer when space runs out.
  public let pinned: Bool

  public init(
    _ action: BoardAction, _ keys: [KeyPattern], _ description: String, group: Group = .other,
    footer: String? = nil, pinned: Bool = false
  ) {
    self.action = action
    self.keys = keys
    self.description = description
    self.group = group
    self.footer = footer
    self.pinned = pinned
  }

  public func keysLabel(ascii: Bool) -> String {
    keys.map { $0.label(ascii: ascii) }.joined(separator: " ")
  }

  /// The same binding on other keys (tests rebind with it).
  public func rebound(_ keys: [KeyPattern], description: String? = nil, footer: String? = nil)
    -> KeyBinding
  {
    KeyBinding(
      action, keys, description ?? self.description, group: group, footer: footer ?? self.footer,
      pinned: pinned)
  }
}

/// An item of the one-line footer: merged bindings sharing a footer word (`↑↓ move`, `+/- limit`).
public struct FooterItem: Sendable, Equatable {
  public let keys: String
  public let label: String
  public let actions: [BoardAction]
  public let pinned: Bool
  public var text: String { keys + " " + label }
}
