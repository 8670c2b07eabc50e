import OpsEngine

extension BoardRenderer {
  mutating func drawBoard(_ layout: BoardLayout, _ ui: inout BoardUIState) {
    if let q = layout.queues { drawQueues(q, &ui) }
    drawOperations(layout.operations, &ui)
    drawExplanation(layout.explanation, ui)
    if let l = layout.log { drawLog(l) }
    if let side = layout.side {
      for y in side.y..<side.maxY { canvas.set("│", x: side.x - 1, y: y, style: .rule) }
      drawSide(side, ui)
    }
  }

  /// One row per queue: name, running/suspended, executing/limit, counts per state, a bar of them.
  mutating func drawQueues(_ r: Rect, _ ui: inout BoardUIState) {
    canvas.titleRule("Queues", in: r, right: "\(model.queues.count)")
    let rows = r.rows(from: 1, count: r.height - 1)
    guard !rows.isEmpty else { return }
    if ui.selectedQueue < ui.queuesScroll { ui.queuesScroll = ui.selectedQueue }
    if ui.selectedQueue >= ui.queuesScroll + rows.height {
      ui.queuesScroll = ui.selectedQueue - rows.height + 1
    }
    ui.queuesScroll = max(0, min(ui.queuesScroll, model.queues.count - rows.height))
    if model.queues.isEmpty {
      canvas.put(" no queues yet", x: rows.x, y: rows.y, style: .dim)
      return
    }
    let nameWidth = min(max(model.longestQueueName, 5), 18)
    let barWidth = rows.width >= 100 ? 30 : rows.width >= 70 ? 16 : 8
    for line in 0..<rows.height {
      let index = ui.queuesScroll + line
      guard index < model.queues.count else { break }
      stats.queueRowsDrawn += 1
      let q = model.queues[index]
      let y = rows.y + line
      let selected = index == ui.selectedQueue
      var x = rows.x
      canvas.put(selected ? "›" : " ", x: x, y: y, style: .bold)
      x += 1
      canvas.put(q.name, x: x, y: y, width: nameWidth, style: selected ? .bold : .plain)
      x += nameWidth + 1
      if q.suspended {
        canvas.put("‖ suspended", x: x, y: y, style: Style(fg: .yellow, attrs: .bold))
      } else {
        canvas.put("▶ running", x: x, y: y, style: Style(fg: .green))
      }
      x += 12
      let limit = "\(q.executing)/\(Vocabulary.limit(q.maxConcurrent))"
      let atLimit = q.maxConcurrent.map { q.executing >= $0 } ?? false
      canvas.putRight(limit, maxX: x + 6, y: y, style: atLimit ? .bold : .plain)
      x += 8
      let countsEnd = rows.maxX - barWidth - 2
      for state in OperationState.allCases where q.counts[state] > 0 {
        let text = "\(StateLook.glyph(state, ascii: ascii))\(q.counts[state])"
        guard x + text.count <= countsEnd else { break }
        x += canvas.put(text, x: x, y: y, style: StateLook.style(state)) + 1
      }
      if q.cancelled > 0 {
        let text = "\(StateLook.cancelledGlyph(ascii: ascii))\(q.cancelled)"
        if x + text.count <= countsEnd {
          canvas.put(text, x: x, y: y, style: StateLook.cancelled)
        }
      }
      if countsEnd > rows.x + 30 {
        drawStateBar(q.counts, x: rows.maxX - barWidth - 1, y: y, width: barWidth)
      }
      if selected {
        canvas.highlight(Rect(x: rows.x, y: y, width: rows.width, height: 1), .reverse)
      }
    }
  }

  /// A compact bar: one cell per share of operations, each drawn with its state's glyph and colour,
  /// finished on the left, waiting on the right. Empty cells are dim dots.
  mutating func drawStateBar(_ counts: StateCounts, x: Int, y: Int, width: Int) {
    let total = counts.total
    let order: [OperationState] = [
      .finished, .finishing, .executing, .ready, .evaluatingConditions, .pending, .initialized,
    ]
    var cells: [OperationState] = []
    if total > 0 {
      // Largest remainder, so the cells add up to the width and no non-zero state vanishes when
      // there is room for it.
      let present = order.filter { counts[$0] > 0 }
      var shares = present.map {
        (state: $0, cells: counts[$0] * width / total, rest: counts[$0] * width % total)
      }
      for i in shares.indices where shares[i].cells == 0 && present.count <= width {
        shares[i].cells = 1
      }
      var used = shares.reduce(0) { $0 + $1.cells }
      for i in shares.indices.sorted(by: { shares[$0].rest > shares[$1].rest }) where used < width {
        shares[i].cells += 1
        used += 1
      }
      while used > width, let i = shares.indices.max(by: { shares[$0].cells < shares[$1].cells }) {
        shares[i].cells -= 1
        used -= 1
      }
      for s in shares { cells += Array(repeating: s.state, count: s.cells) }
    }
    for i in 0..<width {
      if i < cells.count {
        canvas.set(
          StateLook.glyph(cells[i], ascii: ascii), x: x + i, y: y, style: StateLook.style(cells[i]))
      } else {
        canvas.set("·", x: x + i, y: y, style: .dim)
      }
    }
  }

  /// `why: rateApp: waiting for the Alert exclusivity lock held by banner`, from the engine replica.
  mutating func drawExplanation(_ r: Rect, _ ui: BoardUIState) {
    guard let op = selectedRow(ui) else { return }
    let text = Self.explanation(of: op, in: model)
    var x = r.x + 1
    x += canvas.put("why ", x: x, y: r.y, style: .title)
    x += canvas.put(op.name + ": ", x: x, y: r.y, width: r.maxX - x, style: .bold)
    canvas.put(text, x: x, y: r.y, width: r.maxX - x, style: .plain)
  }

  /// The replica's one-line explanation, or what the operation is doing when nothing holds it.
  static func explanation(of op: OperationInfo, in model: BoardModel) -> String {
    if let why = model.whyWaiting(op.name) { return why }
    switch op.state {
    case .executing: return "executing: nothing holds it"
    case .finishing: return "finishing: its observers are being told"
    case .finished:
      return op.cancelled
        ? "finished (cancelled)" : op.errors.isEmpty ? "finished" : "finished with errors"
    default: return op.state.rawValue
    }
  }
}
