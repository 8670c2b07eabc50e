import OpsEngine
import OpsEvents

/// The newest events, oldest at the top, so the latest line sits just above the status line.
/// Observer bookkeeping is left to the full log (`l`).
struct LogPane: Pane {
  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    frame.canvas.titleRule("Log", in: r, right: "l: full log")
    let rows = r.rows(from: 1, count: r.height - 1)
    let entries = frame.model.newestTellingLog(rows.height)
    let subjectWidth = min(
      max(frame.model.longestOperationName, frame.model.longestQueueName, 7), 16)
    for (i, entry) in entries.enumerated() {
      Self.drawLine(
        entry, x: rows.x, y: rows.y + i, width: rows.width, subjectWidth: subjectWidth, &frame)
    }
  }

  /// One log line in columns: time, subject (a command's target), what happened.
  static func drawLine(
    _ entry: LogEntry, x: Int, y: Int, width: Int, subjectWidth: Int,
    _ frame: inout BoardRenderer
  ) {
    frame.stats.logLinesDrawn += 1
    frame.canvas.putRight(clockText(entry.time), maxX: x + 8, y: y, style: .dim)
    var mx = x + 10
    frame.canvas.put(entry.subject, x: mx, y: y, width: subjectWidth)
    mx += subjectWidth + 2
    // A running program's code is its own: no line of Swift is made up for its commands.
    let text = frame.info.live ? entry.message : entry.shownMessage
    frame.canvas.put(text, x: mx, y: y, width: x + width - mx, style: style(entry))
  }

  static func style(_ entry: LogEntry) -> Style {
    switch entry.event.kind {
    case .command: Style(fg: .yellow, attrs: .bold)
    case .state(_, _, let to, _): Style(fg: StateLook.color(to))
    case .cancelled, .cancelTooLate, .cycleDetected, .warning, .refused:
      Style(fg: .red, attrs: .bold)
    case .conditionResult(_, _, .failed, _): Style(fg: .red)
    case .queueSuspended, .queueResumed, .queueMaxConcurrent: .bold
    default: .plain
    }
  }
}
