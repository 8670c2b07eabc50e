/// The row above the footer: a y/n question, the last key's message, or what is happening.
struct StatusPane: Pane {
  var confirmation: Confirmation?
  var status: StatusMessage?

  init(confirmation: Confirmation? = nil, status: StatusMessage? = nil) {
    self.confirmation = confirmation
    self.status = status
  }

  init(_ ui: BoardUIState) { self.init(confirmation: ui.confirmation, status: ui.status) }

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    if let c = confirmation {
      frame.canvas.put(
        " " + c.question + " y/n", x: r.x, y: r.y, width: r.width,
        style: Style(fg: .yellow, attrs: .bold))
      return
    }
    if let s = status {
      let style: Style =
        switch s.kind {
        case .info: .plain
        case .applied: .good
        case .rejected: .bad
        }
      let mark =
        switch s.kind {
        case .info: ""
        case .applied: "✓ "
        case .rejected: "✗ "
        }
      frame.canvas.put(" " + mark + s.text, x: r.x, y: r.y, width: r.width, style: style)
      return
    }
    let hint: String
    if frame.info.finished && frame.info.unfinished > 0,
      let stuck = frame.model.projection.stuckSummary()
    {
      // The projection says what a key can still unblock (a suspended queue, a zero limit) and what not.
      let keys = " r restarts, q quits."
      hint = stuck.count + keys.count < r.width ? stuck + keys : stuck
    } else if frame.info.finished {
      hint = "The scenario is over at \(clockText(frame.model.now))s: r restarts it, q quits."
    } else if let story = Narration.latest(in: frame.model) {
      hint = story
    } else if frame.info.paused {
      hint = "Paused: Space plays, . reveals one event at a time."
    } else {
      hint = ""
    }
    frame.canvas.put(" " + hint, x: r.x, y: r.y, width: r.width, style: .dim)
  }
}
