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
    renderer.drawWarnings(r, &scroll)
  }
}

extension BoardRenderer {
  mutating func drawWarnings(_ r: Rect, _ scroll: inout DocumentScroll) {
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
    scroll.fit(total: lines.count, visible: rows.height)
    for (i, line) in lines.dropFirst(scroll.top).prefix(rows.height).enumerated() {
      var x = rows.x
      for piece in line {
        x += canvas.put(piece.text, x: x, y: rows.y + i, width: rows.maxX - x, style: piece.style)
      }
    }
  }
}
