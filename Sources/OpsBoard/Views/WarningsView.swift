import OpsEngine
import OpsEvents

extension BoardView {
  public static let warnings = BoardView("warnings")
}

/// Every warning the engine raised so far, oldest first, each with the sentence that teaches.
struct WarningsView: DocumentView {
  static let id = BoardView.warnings
  static let title = "In the warnings"
  static let opener: KeyBinding? = KeyBinding(
    BoardAction("open.warnings"), [.char("w")], "the warnings: what went wrong, and why",
    group: .views, footer: "warnings")
  static let bindings: [KeyBinding] = MoveKeys.bindings("scroll", footer: "scroll")
  static let footer: [BoardAction] = [.up, .down, .pauseResume, .step, .back]

  var scroll = DocumentScroll()

  init() {}

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    var pane = WarningsPane(scroll: scroll)
    pane.render(r, &renderer)
    scroll = pane.scroll
  }
}
