extension BoardRenderer {
  /// The scenario's lesson text, word-wrapped to the screen.
  mutating func drawNotes(_ r: Rect, _ ui: inout BoardUIState) {
    canvas.titleRule(
      "Notes · \(info.title)", in: r.rows(from: 0, count: 1), right: "n or Esc closes")
    let rows = r.rows(from: 1, count: r.height - 1)
    let textWidth = min(rows.width - 4, 100)
    let text = notes.isEmpty ? "This scenario has no notes." : TextWrap.reflow(notes)
    let lines = TextWrap.wrap(text, width: textWidth)
    ui.notesScroll = max(0, min(ui.notesScroll, lines.count - rows.height))
    for (i, line) in lines.dropFirst(ui.notesScroll).prefix(rows.height).enumerated() {
      canvas.put(line, x: rows.x + 2, y: rows.y + i, width: textWidth)
    }
    if lines.count > rows.height + ui.notesScroll {
      canvas.putRight(" ↓ more ", maxX: r.maxX - 1, y: r.maxY - 1, style: .dim)
    }
  }
}
