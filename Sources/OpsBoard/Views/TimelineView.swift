import OpsEngine

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

  /// One row per operation, time across: each column is coloured and glyphed by the state the
  /// operation was in at that time. The window ends a little after the moment shown.
  mutating func drawTimeline(_ r: Rect, _ ui: inout BoardUIState) {
    let scale = TimelineScale(zoom: ui.timelineZoom)
    canvas.titleRule(
      "Timeline · \(scale.label) per column", in: r.rows(from: 0, count: 1),
      right: "z/Z zoom · ↑↓ select")
    let list = ui.operations
    let count = list.count(model)
    guard r.height >= 5 else { return }
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
    let rows = Rect(x: r.x, y: r.y + 2, width: r.width, height: r.height - 4)
    if count == 0 {
      canvas.put(" no operations yet", x: rows.x, y: rows.y, width: rows.width, style: .dim)
      return
    }
    let selectedPosition = list.position(of: ui.selectedOperation).position
    if selectedPosition < ui.timelineScroll { ui.timelineScroll = selectedPosition }
    if selectedPosition >= ui.timelineScroll + rows.height {
      ui.timelineScroll = selectedPosition - rows.height + 1
    }
    ui.timelineScroll = max(0, min(ui.timelineScroll, count - rows.height))
    let selected = selectedRow(ui)
    let deps = Set(selected?.dependencies ?? [])
    let dependents = Set(selected?.dependents ?? [])
    for line in 0..<rows.height {
      let position = ui.timelineScroll + line
      guard position < count else { break }
      let index = list.modelIndex(at: position)
      let op = model.operations[index]
      let y = rows.y + line
      let isSelected = index == ui.selectedOperation
      // In ASCII the arrows would read like the selection mark: letters instead.
      let mark: Character =
        isSelected
        ? "›"
        : deps.contains(op.name)
          ? (ascii ? "D" : "→") : dependents.contains(op.name) ? (ascii ? "W" : "←") : " "
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
    if let s = selected, x < r.maxX - 10 {
      let (d, w) = ascii ? ("D", "W") : ("→", "←")
      canvas.put(
        "\(d) \(s.name) waits for · \(w) waits for \(s.name)", x: x, y: legendY,
        width: r.maxX - x, style: .dim)
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
