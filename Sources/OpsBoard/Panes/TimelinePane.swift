import OpsEngine
import OpsEvents

/// One row per operation, time across: each cell filled with the state the operation was in then;
/// the selected row highlighted and kept in view, the moment shown kept in view as time passes.
struct TimelinePane: Pane {
  var selection: SharedState
  var zoom: Int
  /// The first row shown: moved so the selected operation is in view.
  var scroll: Int

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

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let scale = TimelineScale(zoom: zoom)
    frame.canvas.titleRule("Timeline · \(scale.label) per column", in: r.rows(from: 0, count: 1))
    let list = selection.operations
    let count = list.count(frame.model)
    guard r.height >= 6 else { return }
    let nameWidth = min(max(frame.model.longestOperationName, 6), 18)
    let trackX = r.x + 2 + nameWidth + 1
    let trackWidth = r.maxX - trackX - 1
    guard trackWidth > 4 else { return }
    let span = Double(trackWidth) * scale.secondsPerColumn
    // Follow the moment shown: keep it about nine tenths across once the run is wider than the view.
    let now = frame.model.now
    let start =
      max(0, (now - span * 0.9) / scale.secondsPerColumn).rounded(.down)
      * scale.secondsPerColumn
    // Time axis: a label every ten columns.
    let axisY = r.y + 1
    var c = 0
    while c < trackWidth {
      let t = start + Double(c) * scale.secondsPerColumn
      frame.canvas.set(frame.ascii ? "|" : "┆", x: trackX + c, y: axisY, style: .rule)
      frame.canvas.put(
        clockText(t), x: trackX + c + 1, y: axisY, width: min(9, trackWidth - c - 1), style: .dim)
      c += 10
    }
    let nowColumn = Int(((now - start) / scale.secondsPerColumn).rounded(.down))
    // Rows between the time axis and two legend lines.
    let rows = Rect(x: r.x, y: r.y + 2, width: r.width, height: r.height - 5)
    if count == 0 {
      frame.canvas.put(" no operations yet", x: rows.x, y: rows.y, width: rows.width, style: .dim)
      return
    }
    let selected = selection.selectedRow(in: frame.model)
    let selectedIndex = selected.map(\.index)
    let focus = selectedIndex.map { list.position(of: $0).position }
    scroll = ScrollWindow.top(scroll, keeping: focus, visible: rows.height, count: count)
    let deps = Set(selected?.dependencies ?? [])
    let dependents = Set(selected?.dependents ?? [])
    for line in 0..<rows.height {
      let position = scroll + line
      guard position < count else { break }
      let index = list.modelIndex(at: position)
      let op = frame.model.operations[index]
      let y = rows.y + line
      let isSelected = index == selectedIndex
      // Letters, not arrows: d for what the selected one waits for, w for what waits for it.
      let mark: Character =
        isSelected ? "›" : deps.contains(op.name) ? "d" : dependents.contains(op.name) ? "w" : " "
      frame.canvas.set(
        mark, x: rows.x, y: y, style: isSelected ? .bold : Style(fg: .yellow, attrs: .bold))
      let warned = !frame.model.warnings(about: op.name).isEmpty
      frame.canvas.put(
        op.name, x: rows.x + 2, y: y, width: nameWidth - (warned ? 2 : 0),
        style: isSelected ? .bold : .plain)
      if warned {
        frame.canvas.set(
          frame.ascii ? "!" : "⚠", x: rows.x + 3 + min(op.name.count, nameWidth - 2), y: y,
          style: .bad)
      }
      Self.drawTrack(
        op, x: trackX, y: y, width: trackWidth, start: start, scale: scale, now: now, &frame)
      if nowColumn >= 0 && nowColumn < trackWidth
        && frame.canvas.grid[trackX + nowColumn, y].character == " "
      {
        frame.canvas.set("│", x: trackX + nowColumn, y: y, style: .rule)
      }
      if isSelected {
        frame.canvas.highlight(Rect(x: rows.x, y: y, width: nameWidth + 2, height: 1), .reverse)
      }
    }
    let legendY = rows.maxY + 1
    var x = r.x + 1
    for s in [OperationState.pending, .evaluatingConditions, .ready, .executing, .finishing] {
      guard let f = Self.timelineFill(s, ascii: frame.ascii) else { continue }
      // Clipped at the pane's right edge (the canvas clips the same way when they are one).
      if x < r.maxX { frame.canvas.set(f, x: x, y: legendY, style: StateLook.style(s)) }
      x += 2
      x += frame.canvas.put(StateLook.word(s), x: x, y: legendY, width: r.maxX - x, style: .dim) + 2
    }
    x +=
      frame.canvas.put(
        "\(StateLook.cancelledGlyph(ascii: frame.ascii)) cancel", x: x, y: legendY,
        width: r.maxX - x, style: StateLook.cancelled) + 2
    if let s = selected {
      let y = legendY + 1
      var x = r.x + 1
      x += frame.canvas.put("›", x: x, y: y, width: r.maxX - x, style: .bold) + 1
      x += frame.canvas.put("\(s.name)  ", x: x, y: y, width: r.maxX - x, style: .dim)
      x +=
        frame.canvas.put(
          "d", x: x, y: y, width: r.maxX - x, style: Style(fg: .yellow, attrs: .bold)) + 1
      x += frame.canvas.put("\(s.name) waits for it  ", x: x, y: y, width: r.maxX - x, style: .dim)
      x +=
        frame.canvas.put(
          "w", x: x, y: y, width: r.maxX - x, style: Style(fg: .yellow, attrs: .bold)) + 1
      frame.canvas.put("it waits for \(s.name)", x: x, y: y, width: r.maxX - x, style: .dim)
    }
  }

  private static func drawTrack(
    _ op: OperationInfo, x: Int, y: Int, width: Int, start: Double, scale: TimelineScale,
    now: Double, _ frame: inout BoardRenderer
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
      if let f = Self.timelineFill(state, ascii: frame.ascii) {
        frame.canvas.set(f, x: x + c, y: y, style: StateLook.style(state))
      } else if state == .finished, op.history[visit].time > t - scale.secondsPerColumn {
        frame.canvas.set(
          StateLook.glyph(.finished, ascii: frame.ascii), x: x + c, y: y,
          style: StateLook.style(.finished))
      }
    }
    if let at = op.cancelledAt, at >= start {
      let c = Int(((at - start) / scale.secondsPerColumn).rounded(.down))
      if c < width {
        frame.canvas.set(
          StateLook.cancelledGlyph(ascii: frame.ascii), x: x + c, y: y, style: StateLook.cancelled)
      }
    }
  }
}
