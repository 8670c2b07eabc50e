/// The scenario's notes, wrapped, their `code` words in bold, scrolled.
struct NotesPane: Pane {
  var scroll: DocumentScroll

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let close = [NotesView.opener?.keys.first, .key(.escape)].compactMap {
      $0?.label(ascii: frame.ascii)
    }
    frame.canvas.titleRule(
      "Notes · \(frame.info.title)", in: r.rows(from: 0, count: 1),
      right: close.joined(separator: " or ") + " closes")
    let rows = r.rows(from: 1, count: r.height - 1)
    let textWidth = min(rows.width - 4, 100)
    let text = frame.notes.isEmpty ? "This scenario has no notes." : TextWrap.reflow(frame.notes)
    // Wrapped without the backticks, so lines are as long as they are drawn.
    let lines = TextWrap.wrap(text.replacingBackticks(), width: textWidth)
    let spans = TextWrap.codeSpans(text)
    scroll.fit(total: lines.count, visible: rows.height)
    for (i, line) in lines.dropFirst(scroll.top).prefix(rows.height).enumerated() {
      frame.canvas.drawMarkedLine(
        line, spans: spans, x: rows.x + 2, y: rows.y + i, width: textWidth)
    }
    if scroll.hasMore(total: lines.count) {
      frame.canvas.putRight(
        " \(frame.ascii ? "more below" : "↓ more") ", maxX: r.maxX - 1, y: r.maxY - 1, style: .dim)
    }
  }
}
