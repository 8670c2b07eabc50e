/// A key or mouse input, already decoded from the terminal.
public enum KeyInput: Equatable, Sendable {
  case character(Character)
  case up, down, left, right, pageUp, pageDown, home, end
  case enter, escape, tab, backTab, backspace
  case function(Int)
  case ctrl(Character)
  case mouseClick(x: Int, y: Int)
  case scrollUp, scrollDown
  case resize
}
