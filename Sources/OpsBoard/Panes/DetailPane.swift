import OpsEngine
import OpsEvents

/// The detail view's body: the selected operation's document (`DetailDocument`), scrolled, with its
/// state machine beside it when the screen is wide, under it when not.
struct DetailPane: Pane {
  var selection: SharedState
  var scroll: DocumentScroll

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    guard let op = selection.selectedRow(in: frame.model) else {
      frame.canvas.titleRule("Details", in: r.rows(from: 0, count: 1))
      frame.canvas.put(" no operation selected", x: r.x, y: r.y + 1, style: .dim)
      return
    }
    frame.canvas.titleRule("Operation \(op.name)", in: r.rows(from: 0, count: 1), right: "Esc back")
    let body = r.rows(from: 1, count: r.height - 1)
    let twoColumns = body.width >= 100
    let machineWidth = 44
    let textWidth = twoColumns ? body.width - machineWidth - 1 : body.width
    let lines = DetailDocument(frame).lines(op, width: textWidth - 2)
    let machineRows = twoColumns ? 0 : StateMachineDiagram.height + 2
    var doc = Canvas(width: textWidth, height: lines.count + machineRows, ascii: frame.ascii)
    for (i, line) in lines.enumerated() {
      var x = 1
      for piece in line {
        x += doc.put(piece.text, x: x, y: i, width: textWidth - x, style: piece.style)
      }
    }
    if !twoColumns {
      doc.titleRule(
        "State machine", in: Rect(x: 0, y: lines.count + 1, width: textWidth, height: 1))
      StateMachineDiagram.draw(
        op,
        in: Rect(x: 0, y: lines.count + 2, width: textWidth, height: StateMachineDiagram.height),
        canvas: &doc)
    }
    scroll.fit(total: doc.height, visible: body.height)
    frame.canvas.blit(
      doc.grid, from: scroll.top,
      into: Rect(x: body.x, y: body.y, width: textWidth, height: body.height))
    if scroll.hasMore(total: doc.height) {
      frame.canvas.putRight(" ↓ more ", maxX: body.x + textWidth - 1, y: body.maxY - 1, style: .dim)
    }
    if twoColumns {
      let mx = body.x + textWidth + 1
      for y in body.y..<body.maxY { frame.canvas.set("│", x: mx - 1, y: y, style: .rule) }
      frame.canvas.titleRule(
        "State machine", in: Rect(x: mx, y: body.y, width: machineWidth, height: 1))
      StateMachinePane(operation: op).render(
        Rect(x: mx, y: body.y + 1, width: machineWidth, height: StateMachineDiagram.height), &frame)
    }
  }
}
