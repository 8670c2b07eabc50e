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
  /// The last key and its effect (the presenter layout shows it).
  var lastKey: KeyEffect?
  /// The view under a moment's caption, whose keys work there too (help and the footer list them).
  var viewBeneath: BoardView?

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

  /// Draws the frame. Views adjust their scroll positions in `ui` to keep the selection visible.
  mutating func render(_ ui: inout BoardUIState) -> CellGrid {
    guard BoardLayout.fits(width: width, height: height) else {
      drawTooSmall(waiting: ui.waitingKey)
      return canvas.grid
    }
    ui.waitingKey = nil
    ui.shared.clampSelection(model)
    lastKey = ui.lastKey
    viewBeneath = ui.viewBeneath
    stats.filterScanned = ui.shared.operations.lastScanned
    drawHeader(Rect(x: 0, y: 0, width: width, height: 1))
    let body = Rect(x: 0, y: 1, width: width, height: height - 3)
    ui.views.draw(ui.view, body, &self, &ui.shared)
    if let problem = ui.loadError { drawLoadError(problem, in: body) }
    drawStatus(Rect(x: 0, y: height - 2, width: width, height: 1), ui)
    drawFooter(Rect(x: 0, y: height - 1, width: width, height: 1), ui)
    if ui.helpVisible { drawHelp(&ui.help, view: ui.view) }
    return canvas.grid
  }

  // MARK: - Too small

  /// What the board needs, and that it waits meanwhile: the clock is held and keys other than quit
  /// and redraw do nothing (`waiting`: the last such key, named).
  mutating func drawTooSmall(waiting: KeyInput? = nil) {
    let message =
      "opsview needs at least \(BoardLayout.minimumWidth)×\(BoardLayout.minimumHeight) (now \(width)×\(height))"
    let quit = keyMap.keyLabel(.quit, ascii: ascii) ?? "q"
    let key = waiting.map { "\(KeyPattern.quoted($0)) did nothing: " } ?? ""
    let hold = "\(key)the clock and keys wait for a larger window; \(quit) quits"
    guard width > 0, height > 0 else { return }
    // Wrap onto as many lines as the width needs, centred.
    func wrapped(_ text: String) -> [String] {
      var lines: [String] = []
      var rest = Substring(text)
      while !rest.isEmpty {
        var cut = rest.prefix(width)
        if cut.count < rest.count, let space = cut.lastIndex(of: " ") {
          cut = rest[rest.startIndex..<space]
        }
        lines.append(String(cut))
        rest = rest[cut.endIndex...].drop { $0 == " " }
      }
      return lines
    }
    let first = wrapped(message)
    // The second sentence where there is a row for it under a blank one.
    let second = wrapped(hold)
    let lines = first.count + 1 + second.count <= height ? first + [""] + second : first
    let top = max(0, (height - lines.count) / 2)
    for (i, line) in lines.enumerated() where top + i < height {
      let n = ascii ? Canvas.transliterate(line).count : line.count
      canvas.put(
        line, x: max(0, (width - n) / 2), y: top + i, style: i < first.count ? .bold : .plain)
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
      // A live program runs on while its view is paused: say which one stopped.
      playback =
        (info.live ? "‖ view paused, program running" : "‖ paused")
        + (info.unrevealed > 0 ? " · \(info.unrevealed) to show" : "")
    } else {
      playback = "▶ playing"
    }
    let origin = info.sourceLabel.map { "\($0): " } ?? ""
    let helpKey = keyMap.keyLabel(.help, ascii: ascii) ?? "?"
    let warningCount = model.warnings.count
    let warnings = warningCount > 0 ? "\(ascii ? "!" : "⚠") \(warningCount)" : nil
    let quiz = info.quiz.map { "quiz \($0.right)/\($0.asked)" }
    let clock = "t \(clockText(model.now))s"
    let speed = BoardText.speed(info.speed)
    func columns(_ text: String) -> Int {
      ascii ? Canvas.transliterate(text).count : text.reduce(0) { $0 + CellWidth.columns($1) }
    }
    // The right end, roomiest first: then without the help key (the footer has it), closer, without
    // the speed. The first that leaves the title room wins, so the title is never lost to it at
    // 80 columns and nothing ever overlaps.
    let variants: [String] = [
      ("   ", true, true), ("  ", false, true), (" ", false, true), (" ", false, false),
    ].map { gap, help, withSpeed in
      let pieces =
        [
          quiz, warnings, clock, withSpeed ? speed : nil, origin + playback,
          help ? "\(helpKey) help" : nil,
        ]
      return pieces.compactMap { $0 }.joined(separator: gap) + " "
    }
    let titleWidth = columns(info.title)
    func titleRoom(_ right: String) -> Int { r.maxX - columns(right) - 2 - x }
    let right =
      [min(titleWidth, 24), min(titleWidth, 12), 0].compactMap { wanted in
        variants.first { titleRoom($0) >= wanted }
      }.first ?? variants.last!
    let titleRoomLeft = titleRoom(right)
    if titleRoomLeft > 3 {
      canvas.put(info.title, x: x, y: r.y, width: titleRoomLeft, style: bar)
    }
    // Narrower than even the closest right end: its start is cut, never drawn over "opsview".
    let rightWidth = columns(right)
    let start = max(x, r.maxX - rightWidth)
    if start == r.maxX - rightWidth {
      canvas.putRight(right, maxX: r.maxX, y: r.y, style: bar.with(.bold))
    } else {
      canvas.put(right, x: start, y: r.y, width: r.maxX - start, style: bar.with(.bold))
    }
  }

  mutating func drawStatus(_ r: Rect, _ ui: BoardUIState) {
    if let c = ui.confirmation {
      canvas.put(
        " " + c.question + " y/n", x: r.x, y: r.y, width: r.width,
        style: Style(fg: .yellow, attrs: .bold))
      return
    }
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
    if let input = ui.input {
      let text = " / " + input.text
      let n = canvas.put(text, x: r.x, y: r.y, width: r.width, style: .bold)
      canvas.set("▏", x: r.x + n, y: r.y, style: .bold)
      let what = input.purpose == .filter ? "the filter" : "the search"
      canvas.putRight("Enter keeps \(what) · Esc clears it ", maxX: r.maxX, y: r.y, style: .dim)
      return
    }
    var items: [FooterItem]
    if ui.confirmation != nil {
      items = [
        FooterItem(keys: "y", label: "yes", actions: [], pinned: false),
        FooterItem(keys: "n", label: "(or any other key) no", actions: [], pinned: false),
      ]
    } else if ui.helpVisible {
      let up = KeyPattern.key(.up).label(ascii: ascii)
      let down = KeyPattern.key(.down).label(ascii: ascii)
      items = [
        FooterItem(
          keys: ascii ? "\(up)/\(down)" : up + down, label: "scroll", actions: [], pinned: false),
        FooterItem(keys: "PgUp/PgDn", label: "page", actions: [], pinned: false),
        FooterItem(keys: "?/Esc", label: "close", actions: [.help], pinned: false),
      ]
    } else {
      items = keyMap.footerItems(for: ui.view, beneath: viewBeneath, ascii: ascii).map { item in
        // Space says what it will do now.
        guard item.actions == [.pauseResume], info.paused || info.finished else { return item }
        return FooterItem(
          keys: item.keys, label: "play", actions: item.actions, pinned: item.pinned)
      }
      if info.replaying != nil { items = replayFooter() + items.filter(\.pinned) }
      if let reveal = quizRevealFooter(ui) { items = reveal + items.filter(\.pinned) }
    }
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
      actions.compactMap { keyMap.keyLabel($0, ascii: ascii) }.joined()
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
