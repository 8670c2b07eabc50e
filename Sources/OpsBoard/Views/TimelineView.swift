import OpsEngine
import OpsEvents

/// Seconds per column of the timeline for a zoom step: 0.5s at step 0, halved per step in.
struct TimelineScale {
  let secondsPerColumn: Double

  init(zoom: Int) {
    var s = 0.5
    if zoom > 0 { for _ in 0..<zoom { s /= 2 } }
    if zoom < 0 { for _ in 0..<(-zoom) { s *= 2 } }
    secondsPerColumn = s
  }

  var label: String {
    secondsPerColumn >= 1
      ? "\(Int(secondsPerColumn))s" : "\(secondsPerColumn)s"
  }
}

extension BoardView {
  public static let timeline = BoardView("timeline")
}

extension BoardAction {
  static let zoomIn = BoardAction("zoomIn")
  static let zoomOut = BoardAction("zoomOut")
}

/// One row per operation, time across: each column is coloured and glyphed by the state the
/// operation was in at that time. The window ends a little after the moment shown.
struct TimelineView: ViewComponent {
  static let id = BoardView.timeline
  static let title = "In the timeline"
  static let opener: KeyBinding? = KeyBinding(
    BoardAction("open.timeline"), [.char("t")], "timeline: one row per operation, time across",
    group: .views, footer: "timeline")
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("select the operation")
    + [
      KeyBinding(
        .zoomIn, [.char("z"), .char("+")], "zoom in: half the seconds per column",
        group: .views, footer: "zoom"),
      KeyBinding(
        .zoomOut, [.char("Z"), .char("-")], "zoom out: twice the seconds per column",
        group: .views, footer: "zoom"),
    ] + OperationKeys.bindings
  static let footer: [BoardAction] = [
    .up, .down, .zoomIn, .zoomOut, .pauseResume, .eventBack, .eventForward, .openDetail, .back,
  ]
  /// Zoom steps: 0 is 0.5s per column; each step in halves it.
  static let zooms = -6...6

  var zoom = 0
  var scroll = 0

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    if let delta = SelectionMoves.delta(action, input: input, page: 10) {
      context.status = context.shared.moveSelection(by: delta, in: context.model)
      return true
    }
    guard action == .zoomIn || action == .zoomOut else { return false }
    // Zoom keeps the time under the view's left edge; each step doubles or halves seconds per column.
    let zoomIn = action == .zoomIn
    let target = zoom + (zoomIn ? 1 : -1)
    guard Self.zooms.contains(target) else {
      context.status = StatusMessage(
        "the timeline is zoomed \(zoomIn ? "in" : "out") as far as it goes", .rejected)
      return true
    }
    zoom = target
    context.status = StatusMessage("timeline zoom: \(TimelineScale(zoom: target).label) per column")
    return true
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    var pane = TimelinePane(selection: shared, zoom: zoom, scroll: scroll)
    pane.render(r, &renderer)
    scroll = pane.scroll
  }
}
