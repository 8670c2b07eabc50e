/// What an input must be to trigger a binding.
public enum KeyPattern: Sendable, Equatable {
  case key(KeyInput)
  /// Any mouse click.
  case click
  /// The scroll wheel, either way.
  case wheel

  public func matches(_ input: KeyInput) -> Bool {
    switch (self, input) {
    case (.key(let k), _): k == input
    case (.click, .mouseClick): true
    case (.wheel, .scrollUp), (.wheel, .scrollDown): true
    default: false
    }
  }

  /// How help and the footer name the key. Arrows are words in ASCII: `^`/`v` would read as Ctrl.
  public func label(ascii: Bool) -> String {
    switch self {
    case .click: "click"
    case .wheel: "wheel"
    case .key(let k):
      switch k {
      case .up: ascii ? "Up" : "↑"
      case .down: ascii ? "Down" : "↓"
      case .left: ascii ? "Left" : "←"
      case .right: ascii ? "Right" : "→"
      case .pageUp: "PgUp"
      case .pageDown: "PgDn"
      case .home: "Home"
      case .end: "End"
      case .enter: "Enter"
      case .escape: "Esc"
      case .tab: "Tab"
      case .backTab: "S-Tab"
      case .backspace: "Backspace"
      case .function(let n): "F\(n)"
      case .ctrl(let c): "Ctrl-" + String(c).uppercased()
      case .character(" "): "Space"
      case .character(let c): String(c)
      case .mouseClick: "click"
      case .scrollUp, .scrollDown: "wheel"
      case .resize: "resize"
      }
    }
  }

  /// `'s'` for a character, the name for anything else: how a status message quotes a key.
  public static func quoted(_ input: KeyInput) -> String {
    let label = KeyPattern.key(input).label(ascii: false)
    return label.count == 1 ? "'\(label)'" : label
  }
}

extension KeyPattern {
  static func char(_ c: Character) -> KeyPattern { .key(.character(c)) }
}
