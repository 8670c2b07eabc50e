import CNCursesW
import OpsCells

/// What `wget_wch` returned: a character (OK) or a function-key code (KEY_CODE_YES).
public enum RawKey: Equatable, Sendable {
  case character(UInt32)
  case keyCode(Int32)
}

/// Turns raw curses input into board keys. Pure, so it is tested without a terminal.
public enum KeyDecoder {
  /// The key for a raw input, or nil for one the board has no name for (and never sees).
  /// Mouse reports (KEY_MOUSE) need `getmouse` and go through `decodeMouse` instead.
  public static func decode(_ raw: RawKey) -> KeyInput? {
    switch raw {
    case .keyCode(let code): decodeKeyCode(code)
    case .character(let value): decodeCharacter(value)
    }
  }

  static func decodeKeyCode(_ code: Int32) -> KeyInput? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME, KEY_A1: return .home
    case KEY_END, KEY_C1: return .end
    case KEY_ENTER: return .enter
    case KEY_BTAB: return .backTab
    case KEY_BACKSPACE: return .backspace
    case KEY_RESIZE: return .resize
    case (KEY_F0 + 1)...(KEY_F0 + 12): return .function(Int(code - KEY_F0))
    default: return nil
    }
  }

  static func decodeCharacter(_ value: UInt32) -> KeyInput? {
    switch value {
    case 13, 10: return .enter  // nonl() delivers Enter as \r; some terminals send \n
    case 27: return .escape
    case 9: return .tab
    case 8, 127: return .backspace  // ^H and DEL: what Backspace sends, depending on the terminal
    case 1...26:
      // Ctrl-A … Ctrl-Z arrive as 1 … 26; the ones above are taken by Tab, Enter and Backspace.
      return .ctrl(Character(Unicode.Scalar(UInt8(value) + 0x60)))
    case 0..<32, 0x80..<0xA0:
      return nil  // other C0 and C1 controls have no key name
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .character(Character(scalar))
    }
  }

  /// A mouse report: button-1 press or click selects, wheel buttons 4/5 scroll. Coordinates are
  /// screen cells, 0-based.
  public static func decodeMouse(x: Int, y: Int, buttons: UInt32, masks: MouseMasks = .ncurses)
    -> KeyInput?
  {
    if buttons & masks.wheelUp != 0 { return .scrollUp }
    if buttons & masks.wheelDown != 0 { return .scrollDown }
    if buttons & (masks.press | masks.click) != 0 { return .mouseClick(x: x, y: y) }
    return nil
  }
}

/// The ncurses button bits that mean something to the board.
public struct MouseMasks: Sendable, Equatable {
  public var press: UInt32
  public var click: UInt32
  public var wheelUp: UInt32
  public var wheelDown: UInt32

  public init(press: UInt32, click: UInt32, wheelUp: UInt32, wheelDown: UInt32) {
    self.press = press
    self.click = click
    self.wheelUp = wheelUp
    self.wheelDown = wheelDown
  }

  /// The bits of the linked ncurses (they move with its mouse-protocol version).
  public static let ncurses = MouseMasks(
    press: UInt32(opsview_button1_pressed()), click: UInt32(opsview_button1_clicked()),
    wheelUp: UInt32(opsview_button4_pressed()), wheelDown: UInt32(opsview_button5_pressed()))

  /// What to ask `mousemask` for.
  public var all: UInt32 { press | click | wheelUp | wheelDown }
}
