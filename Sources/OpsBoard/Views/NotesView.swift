extension BoardView {
  public static let notes = BoardView("notes")
}

/// The scenario's lesson text, word-wrapped to the screen; `code` spans are drawn bold instead of
/// showing their Markdown backticks.
struct NotesView: DocumentView {
  static let id = BoardView.notes
  static let title = "In the notes"
  static let opener: KeyBinding? = KeyBinding(
    BoardAction("open.notes"), [.char("n")], "the scenario's notes", group: .views,
    footer: "notes")
  static let bindings: [KeyBinding] = MoveKeys.bindings("scroll", footer: "scroll")
  static let footer: [BoardAction] = [.up, .down, .pauseResume, .back]

  var scroll = DocumentScroll()

  init() {}

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    var pane = NotesPane(scroll: scroll)
    pane.render(r, &renderer)
    scroll = pane.scroll
  }
}

extension Canvas {
  /// A notes line with the words that were `code` in bold.
  mutating func drawMarkedLine(
    _ line: String, spans: Set<String>, x: Int, y: Int, width: Int
  ) {
    var cx = x
    for (i, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      if i > 0 { cx += put(" ", x: cx, y: y, width: x + width - cx) }
      let bare = String(word).trimmingCharacters(in: ",.:;()")
      let style: Style = spans.contains(bare) ? .bold : .plain
      cx += put(String(word), x: cx, y: y, width: x + width - cx, style: style)
    }
  }
}

extension String {
  func replacingBackticks() -> String { filter { $0 != "`" } }

  func trimmingCharacters(in set: String) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s.removeFirst() }
    while let l = s.last, set.contains(l) { s.removeLast() }
    return String(s)
  }
}
