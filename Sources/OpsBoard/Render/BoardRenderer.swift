import OpsEngine

/// What one frame cost: tests use it to check that work follows what is visible, not scenario size.
struct RenderStats: Equatable {
  var operationRowsDrawn = 0
  var queueRowsDrawn = 0
  var logLinesDrawn = 0
  var graphNodesDrawn = 0
  var filterScanned = 0
}

/// Turns the model and the UI state into a frame. Everything drawn comes from the model (the engine's
/// story), the UI state (what the user looks at) and the key map (what keys do).
struct BoardRenderer {
  let model: BoardModel
  let info: PlaybackInfo
  let notes: String
  /// The whole log so far (the model keeps only the newest entries).
  let fullLog: ArraySlice<LogEntry>
  let workSettings: [String: String]
  let keyMap: KeyMap
  let ascii: Bool
  var canvas: Canvas
  var stats = RenderStats()

  init(
    model: BoardModel, info: PlaybackInfo, notes: String,
    fullLog: ArraySlice<LogEntry>, workSettings: [String: String], keyMap: KeyMap,
    width: Int, height: Int, ascii: Bool
  ) {
    self.model = model
    self.workSettings = workSettings
    self.info = info
    self.notes = notes
    self.fullLog = fullLog
    self.keyMap = keyMap
    self.ascii = ascii
    canvas = Canvas(width: width, height: height, ascii: ascii)
  }

  var width: Int { canvas.width }
  var height: Int { canvas.height }

  /// Draws the frame. Scroll positions in `ui` are adjusted to keep the selection visible.
  mutating func render(_ ui: inout BoardUIState) -> CellGrid {
    guard BoardLayout.fits(width: width, height: height) else {
      drawTooSmall()
      return canvas.grid
    }
    ui.operations.update(model)
    stats.filterScanned = ui.operations.lastScanned
    clampSelection(&ui)
    let layout = BoardLayout(width: width, height: height, queueCount: model.queues.count)
    drawHeader(layout.header)
    let body = Rect(x: 0, y: 1, width: width, height: height - 3)
    switch ui.view {
    case .board:
      drawBoard(layout, &ui)
    case .detail:
      drawDetail(body, &ui)
    case .graph:
      drawGraph(body, &ui)
    case .log:
      drawFullLog(body, &ui)
    case .notes:
      drawNotes(body, &ui)
    case .timeline:
      drawTimeline(body, &ui)
    case .warnings:
      drawWarnings(body, &ui)
    }
    drawStatus(layout.status, ui)
    drawFooter(layout.footer, ui)
    if ui.helpVisible { drawHelp(&ui) }
    return canvas.grid
  }

  // MARK: - Selection

  /// Keeps the selected operation and queue inside what exists (and the filter shows).
  func clampSelection(_ ui: inout BoardUIState) {
    ui.selectedQueue = min(max(0, ui.selectedQueue), max(0, model.queues.count - 1))
    let count = ui.operations.count(model)
    guard count > 0 else { return }
    let (position, exact) = ui.operations.position(of: ui.selectedOperation)
    if !exact { ui.selectedOperation = ui.operations.modelIndex(at: min(position, count - 1)) }
  }

  /// The selected operation, if the list shows any.
  func selectedRow(_ ui: BoardUIState) -> OperationInfo? {
    guard ui.operations.count(model) > 0, ui.selectedOperation < model.operations.count else {
      return nil
    }
    return model.operations[ui.selectedOperation]
  }

  // MARK: - Too small

  mutating func drawTooSmall() {
    let message =
      "opsview needs at least \(BoardLayout.minimumWidth)×\(BoardLayout.minimumHeight) (now \(width)×\(height))"
    guard width > 0, height > 0 else { return }
    // Wrap onto as many lines as the width needs, centred.
    var lines: [String] = []
    var rest = Substring(message)
    while !rest.isEmpty {
      var cut = rest.prefix(width)
      if cut.count < rest.count, let space = cut.lastIndex(of: " ") {
        cut = rest[rest.startIndex..<space]
      }
      lines.append(String(cut))
      rest = rest[cut.endIndex...].drop { $0 == " " }
    }
    let top = max(0, (height - lines.count) / 2)
    for (i, line) in lines.enumerated() where top + i < height {
      let n = ascii ? Canvas.transliterate(line).count : line.count
      canvas.put(line, x: max(0, (width - n) / 2), y: top + i, style: .bold)
    }
  }

  // MARK: - Header, status, footer

  mutating func drawHeader(_ r: Rect) {
    let bar = Style(attrs: .reverse)
    canvas.fill(r, style: bar)
    var x = r.x + 1
    x += canvas.put("opsview", x: x, y: r.y, style: bar.with(.bold))
    x += canvas.put(" │ ", x: x, y: r.y, style: bar)
    let playback: String
    if let r = info.replaying {
      playback = "◀ replaying \(r.shown)/\(r.of)"
    } else if info.finished {
      playback = info.unfinished == 0 ? "■ done" : "■ stuck"
    } else if info.paused {
      playback = "‖ paused" + (info.unrevealed > 0 ? " · \(info.unrevealed) to show" : "")
    } else {
      playback = "▶ playing"
    }
    let helpKey = keyMap.binding(for: .help)?.keys.first?.label(ascii: ascii) ?? "?"
    let warningCount = model.warnings.count
    let warnings = warningCount > 0 ? "\(ascii ? "!" : "⚠") \(warningCount)   " : ""
    let right =
      "\(warnings)t \(clockText(model.now))s   \(Vocabulary.speed(info.speed))   \(playback)   \(helpKey) help "
    let rightWidth = ascii ? Canvas.transliterate(right).count : right.count
    let titleRoom = r.maxX - rightWidth - 2 - x
    if titleRoom > 3 { canvas.put(info.title, x: x, y: r.y, width: titleRoom, style: bar) }
    canvas.putRight(right, maxX: r.maxX, y: r.y, style: bar.with(.bold))
  }

  mutating func drawStatus(_ r: Rect, _ ui: BoardUIState) {
    if let s = ui.status {
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
      canvas.put(" " + mark + s.text, x: r.x, y: r.y, width: r.width, style: style)
      return
    }
    let hint: String
    if info.finished && info.unfinished > 0, let stuck = model.projection.stuckSummary() {
      // The projection says what a key can still unblock (a suspended queue, a zero limit) and what not.
      let keys = " r restarts, q quits."
      hint = stuck.count + keys.count < r.width ? stuck + keys : stuck
    } else if info.finished {
      hint = "The scenario is over at \(clockText(model.now))s: r restarts it, q quits."
    } else if let story = Narration.latest(in: model) {
      hint = story
    } else if info.paused {
      hint = "Paused: Space plays, . reveals one event at a time."
    } else {
      hint = ""
    }
    canvas.put(" " + hint, x: r.x, y: r.y, width: r.width, style: .dim)
  }

  mutating func drawFooter(_ r: Rect, _ ui: BoardUIState) {
    if ui.filterEditing {
      let text = " / " + ui.operations.query
      let n = canvas.put(text, x: r.x, y: r.y, width: r.width, style: .bold)
      canvas.set("▏", x: r.x + n, y: r.y, style: .bold)
      canvas.putRight(
        "Enter keeps the filter · Esc clears it ", maxX: r.maxX, y: r.y, style: .dim)
      return
    }
    var items = keyMap.footerItems(for: ui.view, ascii: ascii)
    if info.replaying != nil { items = replayFooter() + items.filter(\.pinned) }
    let pinned = items.filter(\.pinned)
    let pinnedWidth = pinned.reduce(0) { $0 + $1.text.count + 2 }
    var x = r.x + 1
    func draw(_ item: FooterItem, _ canvas: inout Canvas, _ x: inout Int) {
      x += canvas.put(item.keys, x: x, y: r.y, style: Style(fg: .cyan, attrs: .bold))
      x += canvas.put(" " + item.label, x: x, y: r.y)
      x += 2
    }
    for item in items where !item.pinned {
      let w = (ascii ? Canvas.transliterate(item.text).count : item.text.count) + 2
      if x + w > r.maxX - pinnedWidth { break }
      draw(item, &canvas, &x)
    }
    x = max(x, r.maxX - pinnedWidth)
    for item in pinned { draw(item, &canvas, &x) }
  }

  /// While replaying, the footer is about travelling and where Space resumes from (read from the key
  /// map, so it names the keys that really do it).
  func replayFooter() -> [FooterItem] {
    func keys(_ actions: [BoardAction]) -> String {
      actions.compactMap { keyMap.binding(for: $0)?.keys.first?.label(ascii: ascii) }.joined()
    }
    let from = info.resumeFrom == .here ? "here" : "present"
    return [
      FooterItem(
        keys: keys([.eventBack, .eventForward]), label: "event",
        actions: [.eventBack, .eventForward], pinned: false),
      FooterItem(
        keys: keys([.secondBack, .secondForward]), label: "second",
        actions: [.secondBack, .secondForward], pinned: false),
      FooterItem(
        keys: keys([.pauseResume]), label: "resume", actions: [.pauseResume], pinned: false),
      FooterItem(
        keys: keys([.resumePoint]), label: "from: \(from)", actions: [.resumePoint],
        pinned: false),
    ]
  }
}
