import OpsEngine
import OpsEvents

/// Every key of the view underneath and of the whole board, then the legends, over the board.
/// While it is open its keys are the only ones: they scroll it and close it, and the clock waits.
struct HelpOverlay {
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("scroll", footer: "scroll")
    + [
      KeyBinding(
        .help, [.char("?"), .key(.function(1)), .key(.escape), .char("q")], "close the help",
        group: .other, footer: "close"),
      KeyBinding(.redraw, [.key(.ctrl("l"))], "redraw the screen", group: .other),
    ]

  /// Pairs of opposite actions help lists on one line, under the first one's description.
  static let pairs: [BoardAction: BoardAction] = [
    .up: .down, .slower: .faster, .eventBack: .eventForward, .secondBack: .secondForward,
  ]

  var scroll = DocumentScroll()
  /// Whether the clock was running when help opened (it runs again when help closes).
  var resumeOnClose = false

  /// A move key; false for anything else.
  mutating func perform(_ action: BoardAction, input: KeyInput) -> Bool {
    scroll.perform(action, input: input)
  }
}
