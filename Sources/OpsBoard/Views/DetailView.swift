import OpsEngine
import OpsEvents

extension BoardView {
  public static let detail = BoardView("detail")
}

/// Everything about the selected operation: its settings, each state it entered and how long it
/// stayed, its flags, dependencies both ways, conditions and errors; the state machine beside it.
/// Opened with Enter from the views that show a selection.
struct DetailView: DocumentView {
  static let id = BoardView.detail
  static let title = "In the details"
  static let opener: KeyBinding? = nil
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("scroll", footer: "scroll")
    + [OperationKeys.cancel]
  static let footer: [BoardAction] = [
    .up, .down, .pauseResume, .step, .cancelOperation, .eventBack, .eventForward, .back,
  ]

  var scroll = DocumentScroll()

  init() {}

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    var pane = DetailPane(selection: shared, scroll: scroll)
    pane.render(r, &renderer)
    scroll = pane.scroll
  }
}

extension Canvas {
  /// Copies rows of a drawn document into the frame, starting at document row `top`.
  mutating func blit(_ doc: CellGrid, from top: Int, into r: Rect) {
    for y in 0..<r.height where top + y < doc.height {
      for x in 0..<min(r.width, doc.width) {
        let c = doc[x, top + y]
        grid[r.x + x, r.y + y] = c
      }
    }
  }
}

extension String {
  func rightPadded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
