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
    renderer.drawNotes(r, &scroll)
  }
}

extension BoardRenderer {
  mutating func drawNotes(_ r: Rect, _ scroll: inout DocumentScroll) {
    let close = [NotesView.opener?.keys.first, .key(.escape)].compactMap { $0?.label(ascii: ascii) }
    canvas.titleRule(
      "Notes · \(info.title)", in: r.rows(from: 0, count: 1),
      right: close.joined(separator: " or ") + " closes")
    let rows = r.rows(from: 1, count: r.height - 1)
    let textWidth = min(rows.width - 4, 100)
    let text = notes.isEmpty ? "This scenario has no notes." : TextWrap.reflow(notes)
    // Wrapped without the backticks, so lines are as long as they are drawn.
    let lines = TextWrap.wrap(text.replacingBackticks(), width: textWidth)
    let spans = TextWrap.codeSpans(text)
    scroll.fit(total: lines.count, visible: rows.height)
    for (i, line) in lines.dropFirst(scroll.top).prefix(rows.height).enumerated() {
      drawMarkedLine(line, spans: spans, x: rows.x + 2, y: rows.y + i, width: textWidth)
    }
    if scroll.hasMore(total: lines.count) {
      canvas.putRight(
        " \(ascii ? "more below" : "↓ more") ", maxX: r.maxX - 1, y: r.maxY - 1, style: .dim)
    }
  }

  /// A notes line with the words that were `code` in bold.
  mutating func drawMarkedLine(
    _ line: String, spans: Set<String>, x: Int, y: Int, width: Int
  ) {
    var cx = x
    for (i, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      if i > 0 { cx += canvas.put(" ", x: cx, y: y, width: x + width - cx) }
      let bare = String(word).trimmingCharacters(in: ",.:;()")
      let style: Style = spans.contains(bare) ? .bold : .plain
      cx += canvas.put(String(word), x: cx, y: y, width: x + width - cx, style: style)
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
