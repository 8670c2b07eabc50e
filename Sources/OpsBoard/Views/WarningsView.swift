import OpsEngine

extension BoardRenderer {
  /// Every warning the detector raised so far, oldest first, each with the sentence that teaches.
  mutating func drawWarnings(_ r: Rect, _ ui: inout BoardUIState) {
    let warnings = model.warnings
    canvas.titleRule(
      "Warnings · \(warnings.count)", in: r.rows(from: 0, count: 1), right: "Esc back")
    let rows = r.rows(from: 1, count: r.height - 1)
    if warnings.isEmpty {
      canvas.put(
        " no warnings: nothing has gone wrong so far", x: rows.x, y: rows.y, width: rows.width,
        style: .dim)
      return
    }
    var lines: [Pieces] = []
    for w in warnings {
      lines.append([
        (clockText(w.time).leftPadded(7) + "  ", .dim), ((ascii ? "! " : "⚠ ") + w.subject, .bad),
        ("  " + w.kind, Style(fg: .yellow)),
      ])
      for line in TextWrap.wrap(w.message, width: max(10, rows.width - 12)) {
        lines.append([("           " + line, .plain)])
      }
    }
    ui.warningsScroll = max(0, min(ui.warningsScroll, lines.count - rows.height))
    for (i, line) in lines.dropFirst(ui.warningsScroll).prefix(rows.height).enumerated() {
      var x = rows.x
      for piece in line {
        x += canvas.put(piece.text, x: x, y: rows.y + i, width: rows.maxX - x, style: piece.style)
      }
    }
  }
}
