import OpsEngine
import OpsEvents

/// One row per queue: name, running/suspended, executing/limit, counts per state, a bar of them.
struct QueuesPane: Pane {
  /// The highlighted row.
  var selectedQueue: Int
  /// The first queue shown: moved so the selected one is in view.
  var scroll: Int

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    frame.canvas.titleRule("Queues", in: r, right: "\(frame.model.queues.count)")
    let rows = r.rows(from: 1, count: r.height - 1)
    guard !rows.isEmpty else { return }
    scroll = ScrollWindow.top(
      scroll, keeping: selectedQueue, visible: rows.height, count: frame.model.queues.count)
    if frame.model.queues.isEmpty {
      frame.canvas.put(" no queues yet", x: rows.x, y: rows.y, style: .dim)
      return
    }
    let nameWidth = min(max(frame.model.longestQueueName, 5), 18)
    let barWidth = rows.width >= 100 ? 30 : rows.width >= 70 ? 16 : 8
    for line in 0..<rows.height {
      let index = scroll + line
      guard index < frame.model.queues.count else { break }
      frame.stats.queueRowsDrawn += 1
      let q = frame.model.queues[index]
      let y = rows.y + line
      let selected = index == selectedQueue
      var x = rows.x
      frame.canvas.put(selected ? "›" : " ", x: x, y: y, style: .bold)
      x += 1
      frame.canvas.put(q.name, x: x, y: y, width: nameWidth, style: selected ? .bold : .plain)
      x += nameWidth + 1
      if q.suspended {
        frame.canvas.put("‖ suspended", x: x, y: y, style: Style(fg: .yellow, attrs: .bold))
      } else {
        frame.canvas.put("▶ running", x: x, y: y, style: Style(fg: .green))
      }
      x += 12
      // Slots taken, as the limit counts them: executing, and started operations asking again for
      // a lock (X10).
      let limit = "\(q.slotsTaken)/\(q.limitText)"
      frame.canvas.putRight(limit, maxX: x + 6, y: y, style: q.isAtLimit ? .bold : .plain)
      x += 8
      let countsEnd = rows.maxX - barWidth - 2
      // Cancelled ones that finished are counted once, as ✕, not also as ✓: the numbers add up
      // to the queue's operations.
      let cancelledDone = Self.cancelledAndFinished(q, in: frame.model)
      var counts = q.counts
      counts[.finished] -= cancelledDone
      for state in OperationState.allCases where counts[state] > 0 {
        let text = "\(StateLook.glyph(state, ascii: frame.ascii))\(counts[state])"
        guard x + text.count <= countsEnd else { break }
        x += frame.canvas.put(text, x: x, y: y, style: StateLook.style(state)) + 1
      }
      if cancelledDone > 0 {
        let text = "\(StateLook.cancelledGlyph(ascii: frame.ascii))\(cancelledDone)"
        if x + text.count <= countsEnd {
          frame.canvas.put(text, x: x, y: y, style: StateLook.cancelled)
        }
      }
      if countsEnd > rows.x + 30 {
        Self.drawStateBar(
          counts, cancelled: cancelledDone, x: rows.maxX - barWidth - 1, y: y, width: barWidth,
          canvas: &frame.canvas)
      }
      if selected {
        frame.canvas.highlight(Rect(x: rows.x, y: y, width: rows.width, height: 1), .reverse)
      }
    }
  }

  /// Operations of the queue that finished cancelled. Only unfinished members are looked at, and
  /// only when the queue has cancelled operations at all.
  static func cancelledAndFinished(_ q: QueueInfo, in model: BoardModel) -> Int {
    guard q.cancelled > 0 else { return 0 }
    return q.cancelled - model.projection.members(of: q.name).filter(\.cancelled).count
  }

  /// A compact bar: one cell per share of operations, each drawn with its state's glyph and colour,
  /// finished on the left (cancelled ones as ✕), waiting on the right. Empty cells are dim dots.
  static func drawStateBar(
    _ counts: StateCounts, cancelled: Int = 0, x: Int, y: Int, width: Int, canvas: inout Canvas
  ) {
    let ascii = canvas.ascii
    let order: [OperationState] = [
      .finished, .finishing, .executing, .ready, .evaluatingConditions, .pending, .initialized,
    ]
    // Each slice: how many, and the glyph and style of its cells; cancelled ones after finished.
    var slices = order.map {
      (count: counts[$0], glyph: StateLook.glyph($0, ascii: ascii), style: StateLook.style($0))
    }
    slices.insert(
      (cancelled, StateLook.cancelledGlyph(ascii: ascii), StateLook.cancelled), at: 1)
    slices.removeAll { $0.count == 0 }
    let total = slices.reduce(0) { $0 + $1.count }
    var cells: [(Character, Style)] = []
    if total > 0 {
      // Largest remainder, so the cells add up to the width and no non-empty slice vanishes when
      // there is room for it.
      var shares = slices.map { (cells: $0.count * width / total, rest: $0.count * width % total) }
      for i in shares.indices where shares[i].cells == 0 && slices.count <= width {
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
      for (slice, share) in zip(slices, shares) {
        cells += Array(repeating: (slice.glyph, slice.style), count: share.cells)
      }
    }
    for i in 0..<width {
      if i < cells.count {
        canvas.set(cells[i].0, x: x + i, y: y, style: cells[i].1)
      } else {
        canvas.set("·", x: x + i, y: y, style: .dim)
      }
    }
  }
}
