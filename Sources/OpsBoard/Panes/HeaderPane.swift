/// The top row: the title, then playback, the clock, the speed, warnings, the quiz's score and
/// the help key, as many as fit (the title keeps its room).
struct HeaderPane: Pane {
  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let bar = Style(attrs: .reverse)
    frame.canvas.fill(r, style: bar)
    var x = r.x + 1
    x += frame.canvas.put("opsview", x: x, y: r.y, style: bar.with(.bold))
    x += frame.canvas.put(" │ ", x: x, y: r.y, style: bar)
    let playback: String
    if let r = frame.info.showingPast {
      playback = "◀ past \(r.shown)/\(r.of)"
    } else if frame.info.finished {
      playback = frame.info.unfinished == 0 ? "■ done" : "■ stuck"
    } else if frame.info.paused {
      // A live program runs on while its view is paused: say which one stopped.
      playback =
        (frame.info.live ? "‖ view paused, program running" : "‖ paused")
        + (frame.info.unrevealed > 0 ? " · \(frame.info.unrevealed) to show" : "")
    } else {
      playback = "▶ playing"
    }
    let origin = frame.info.sourceLabel.map { "\($0): " } ?? ""
    let helpKey = frame.keyMap.keyLabel(.help, ascii: frame.ascii) ?? "?"
    let warningCount = frame.model.warnings.count
    let warnings = warningCount > 0 ? "\(frame.ascii ? "!" : "⚠") \(warningCount)" : nil
    let quiz = frame.info.quiz.map { "quiz \($0.right)/\($0.asked)" }
    let clock = "t \(clockText(frame.model.now))s"
    let speed = BoardText.speed(frame.info.speed)
    func columns(_ text: String) -> Int {
      frame.ascii ? Canvas.transliterate(text).count : text.reduce(0) { $0 + CellWidth.columns($1) }
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
    let titleWidth = columns(frame.info.title)
    func titleRoom(_ right: String) -> Int { r.maxX - columns(right) - 2 - x }
    let right =
      [min(titleWidth, 24), min(titleWidth, 12), 0].compactMap { wanted in
        variants.first { titleRoom($0) >= wanted }
      }.first ?? variants.last!
    let titleRoomLeft = titleRoom(right)
    if titleRoomLeft > 3 {
      frame.canvas.put(frame.info.title, x: x, y: r.y, width: titleRoomLeft, style: bar)
    }
    // Narrower than even the closest right end: its start is cut, never drawn over "opsview".
    let rightWidth = columns(right)
    let start = max(x, r.maxX - rightWidth)
    if start == r.maxX - rightWidth {
      frame.canvas.putRight(right, maxX: r.maxX, y: r.y, style: bar.with(.bold))
    } else {
      frame.canvas.put(right, x: start, y: r.y, width: r.maxX - start, style: bar.with(.bold))
    }
  }
}
