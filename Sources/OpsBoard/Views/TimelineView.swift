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
    renderer.drawTimeline(r, shared, &self)
  }
}

extension BoardRenderer {
  /// The fill of a timeline cell for a state; nil leaves it blank (not added yet, or finished).
  static func timelineFill(_ s: OperationState, ascii: Bool) -> Character? {
    switch s {
    case .initialized, .finished: nil
    case .pending: ascii ? "." : "┄"
    case .evaluatingConditions: ascii ? "?" : "▒"
    case .ready: ascii ? "+" : "░"
    case .executing: ascii ? "#" : "█"
    case .finishing: ascii ? "~" : "▓"
    }
  }

  mutating func drawTimeline(_ r: Rect, _ shared: SharedState, _ view: inout TimelineView) {
    let scale = TimelineScale(zoom: view.zoom)
    canvas.titleRule("Timeline · \(scale.label) per column", in: r.rows(from: 0, count: 1))
    let list = shared.operations
    let count = list.count(model)
    guard r.height >= 6 else { return }
    let nameWidth = min(max(model.longestOperationName, 6), 18)
    let trackX = r.x + 2 + nameWidth + 1
    let trackWidth = r.maxX - trackX - 1
    guard trackWidth > 4 else { return }
    let span = Double(trackWidth) * scale.secondsPerColumn
    // Follow the moment shown: keep it about nine tenths across once the run is wider than the view.
    let now = model.now
    let start =
      max(0, (now - span * 0.9) / scale.secondsPerColumn).rounded(.down)
      * scale.secondsPerColumn
    // Time axis: a label every ten columns.
    let axisY = r.y + 1
    var c = 0
    while c < trackWidth {
      let t = start + Double(c) * scale.secondsPerColumn
      canvas.set(ascii ? "|" : "┆", x: trackX + c, y: axisY, style: .rule)
      canvas.put(
        clockText(t), x: trackX + c + 1, y: axisY, width: min(9, trackWidth - c - 1), style: .dim)
      c += 10
    }
    let nowColumn = Int(((now - start) / scale.secondsPerColumn).rounded(.down))
    // Rows between the time axis and two legend lines.
    let rows = Rect(x: r.x, y: r.y + 2, width: r.width, height: r.height - 5)
    if count == 0 {
      canvas.put(" no operations yet", x: rows.x, y: rows.y, width: rows.width, style: .dim)
      return
    }
    let selected = shared.selectedRow(in: model)
    let selectedIndex = selected.map(\.index)
    let focus = selectedIndex.map { list.position(of: $0).position }
    view.scroll = ScrollWindow.top(view.scroll, keeping: focus, visible: rows.height, count: count)
    let deps = Set(selected?.dependencies ?? [])
    let dependents = Set(selected?.dependents ?? [])
    for line in 0..<rows.height {
      let position = view.scroll + line
      guard position < count else { break }
      let index = list.modelIndex(at: position)
      let op = model.operations[index]
      let y = rows.y + line
      let isSelected = index == selectedIndex
      // Letters, not arrows: d for what the selected one waits for, w for what waits for it.
      let mark: Character =
        isSelected ? "›" : deps.contains(op.name) ? "d" : dependents.contains(op.name) ? "w" : " "
      canvas.set(
        mark, x: rows.x, y: y, style: isSelected ? .bold : Style(fg: .yellow, attrs: .bold))
      let warned = !model.warnings(about: op.name).isEmpty
      canvas.put(
        op.name, x: rows.x + 2, y: y, width: nameWidth - (warned ? 2 : 0),
        style: isSelected ? .bold : .plain)
      if warned {
        canvas.set(
          ascii ? "!" : "⚠", x: rows.x + 3 + min(op.name.count, nameWidth - 2), y: y, style: .bad)
      }
      drawTimelineTrack(
        op, x: trackX, y: y, width: trackWidth, start: start, scale: scale, now: now)
      if nowColumn >= 0 && nowColumn < trackWidth
        && canvas.grid[trackX + nowColumn, y].character == " "
      {
        canvas.set("│", x: trackX + nowColumn, y: y, style: .rule)
      }
      if isSelected {
        canvas.highlight(Rect(x: rows.x, y: y, width: nameWidth + 2, height: 1), .reverse)
      }
    }
    let legendY = rows.maxY + 1
    var x = r.x + 1
    for s in [OperationState.pending, .evaluatingConditions, .ready, .executing, .finishing] {
      guard let f = Self.timelineFill(s, ascii: ascii) else { continue }
      canvas.set(f, x: x, y: legendY, style: StateLook.style(s))
      x += 2
      x += canvas.put(StateLook.word(s), x: x, y: legendY, style: .dim) + 2
    }
    x +=
      canvas.put(
        "\(StateLook.cancelledGlyph(ascii: ascii)) cancel", x: x, y: legendY,
        style: StateLook.cancelled) + 2
    if let s = selected {
      let y = legendY + 1
      var x = r.x + 1
      x += canvas.put("›", x: x, y: y, style: .bold) + 1
      x += canvas.put("\(s.name)  ", x: x, y: y, width: r.maxX - x, style: .dim)
      x += canvas.put("d", x: x, y: y, style: Style(fg: .yellow, attrs: .bold)) + 1
      x += canvas.put("\(s.name) waits for it  ", x: x, y: y, width: r.maxX - x, style: .dim)
      x += canvas.put("w", x: x, y: y, style: Style(fg: .yellow, attrs: .bold)) + 1
      canvas.put("it waits for \(s.name)", x: x, y: y, width: r.maxX - x, style: .dim)
    }
  }

  private mutating func drawTimelineTrack(
    _ op: OperationInfo, x: Int, y: Int, width: Int, start: Double, scale: TimelineScale,
    now: Double
  ) {
    var visit = 0
    for c in 0..<width {
      let t = start + (Double(c) + 0.5) * scale.secondsPerColumn
      let end = start + Double(c + 1) * scale.secondsPerColumn
      guard t <= now || start + Double(c) * scale.secondsPerColumn <= now else { break }
      while visit + 1 < op.history.count && op.history[visit + 1].time <= t { visit += 1 }
      guard op.history[visit].time <= t || visit > 0 else { continue }
      // A state shorter than a column still shows: the latest one entered within the column wins
      // when it is executing (so short runs are never invisible).
      var state = op.history[visit].state
      var j = visit + 1
      while j < op.history.count && op.history[j].time < end {
        if op.history[j].state == .executing { state = .executing }
        j += 1
      }
      if let f = Self.timelineFill(state, ascii: ascii) {
        canvas.set(f, x: x + c, y: y, style: StateLook.style(state))
      } else if state == .finished, op.history[visit].time > t - scale.secondsPerColumn {
        canvas.set(
          StateLook.glyph(.finished, ascii: ascii), x: x + c, y: y,
          style: StateLook.style(.finished))
      }
    }
    if let at = op.cancelledAt, at >= start {
      let c = Int(((at - start) / scale.secondsPerColumn).rounded(.down))
      if c < width {
        canvas.set(
          StateLook.cancelledGlyph(ascii: ascii), x: x + c, y: y, style: StateLook.cancelled)
      }
    }
  }
}
