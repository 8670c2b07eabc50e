extension BoardRenderer {
  /// The whole event log, newest at the bottom; scrolling up holds the view still while events arrive.
  mutating func drawFullLog(_ r: Rect, _ ui: inout BoardUIState) {
    let rows = r.rows(from: 1, count: r.height - 1)
    let total = fullLog.count
    ui.logScroll = max(0, min(ui.logScroll, total - rows.height))
    let end = total - ui.logScroll
    let start = max(0, end - rows.height)
    let right =
      ui.logScroll > 0
      ? "\(ui.logScroll) newer below · End jumps to the newest" : "newest at the bottom"
    canvas.titleRule("Event log · \(total) events", in: r.rows(from: 0, count: 1), right: right)
    if total == 0 {
      canvas.put(" no events yet", x: rows.x, y: rows.y, style: .dim)
      return
    }
    let subjectWidth = min(max(model.longestOperationName, model.longestQueueName, 7), 20)
    for (line, i) in (start..<end).enumerated() {
      drawLogLine(
        fullLog[i], x: rows.x, y: rows.y + line, width: rows.width, subjectWidth: subjectWidth)
    }
  }
}
