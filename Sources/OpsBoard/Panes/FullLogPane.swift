/// Every event so far (the log view): the newest at the bottom unless scrolled, a search's match
/// highlighted. It keeps the rows it had in `view` (scrolling and search read them).
struct FullLogPane: Pane {
  var view: LogView

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let rows = r.rows(from: 1, count: r.height - 1)
    let total = frame.fullLog.count
    view.visible = rows.height
    let start: Int
    if let t = view.top, t < max(0, total - rows.height) {
      start = t
    } else {
      view.top = nil
      start = max(0, total - rows.height)
    }
    let end = min(total, start + rows.height)
    let newer = total - end
    var right = newer > 0 ? "\(newer) newer below · End follows the newest" : "newest at the bottom"
    if !view.query.isEmpty { right = "/\(view.query) · " + right }
    frame.canvas.titleRule(
      "Event log · \(total) events", in: r.rows(from: 0, count: 1), right: right)
    if total == 0 {
      frame.canvas.put(" no events yet", x: rows.x, y: rows.y, style: .dim)
      return
    }
    let subjectWidth = min(
      max(frame.model.longestOperationName, frame.model.longestQueueName, 7), 20)
    let base = frame.fullLog.startIndex
    for (line, i) in (start..<end).enumerated() {
      LogPane.drawLine(
        frame.fullLog[base + i], x: rows.x, y: rows.y + line, width: rows.width,
        subjectWidth: subjectWidth, &frame)
      if i == view.match {
        frame.canvas.highlight(
          Rect(x: rows.x, y: rows.y + line, width: rows.width, height: 1), .reverse)
      }
    }
  }
}
