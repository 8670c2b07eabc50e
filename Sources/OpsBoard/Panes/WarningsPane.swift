import OpsEngine
import OpsEvents

/// Every warning so far: when, about what, which kind, and its message wrapped under it; scrolled.
struct WarningsPane: Pane {
  var scroll: DocumentScroll

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let warnings = frame.model.warnings
    frame.canvas.titleRule(
      "Warnings · \(warnings.count)", in: r.rows(from: 0, count: 1), right: "Esc back")
    let rows = r.rows(from: 1, count: r.height - 1)
    if warnings.isEmpty {
      frame.canvas.put(
        " no warnings: nothing has gone wrong so far", x: rows.x, y: rows.y, width: rows.width,
        style: .dim)
      return
    }
    var lines: [Pieces] = []
    for w in warnings {
      lines.append([
        (clockText(w.time).leftPadded(7) + "  ", .dim),
        ((frame.ascii ? "! " : "⚠ ") + w.subject, .bad),
        ("  " + w.kind, Style(fg: .yellow)),
      ])
      for line in TextWrap.wrap(w.message, width: max(10, rows.width - 12)) {
        lines.append([("           " + line, .plain)])
      }
    }
    scroll.fit(total: lines.count, visible: rows.height)
    for (i, line) in lines.dropFirst(scroll.top).prefix(rows.height).enumerated() {
      var x = rows.x
      for piece in line {
        x += frame.canvas.put(
          piece.text, x: x, y: rows.y + i, width: rows.maxX - x, style: piece.style)
      }
    }
  }
}
