import OpsEngine
import OpsEvents

/// The help's lines and columns, read from the key map of a frame's context.
struct HelpLayout {
  let context: RenderContext
  var ascii: Bool { context.ascii }
  var keyMap: KeyMap { context.keyMap }
  var viewBeneath: BoardView? { context.viewBeneath }

  /// One line of the help: a group title, a key and what it does, or a legend.
  enum HelpLine {
    case heading(String)
    case key(keys: String, description: String)
    case continuation(String)
    case legend([(glyph: String, text: String, style: Style)])
    case blank
  }

  /// The help's sections for a column width: the shown view's own keys, the keys that work
  /// everywhere by group, then the legends. All read from the key map, so help, footer and
  /// handling agree.
  func helpSections(for view: BoardView, width: Int) -> [[HelpLine]] {
    // A running program's board leaves out the keys that belong to a scenario (refused there).
    let live = context.info.live
    func section(_ title: String, _ bindings: [KeyBinding]) -> [HelpLine] {
      var lines: [HelpLine] = [.heading(title)]
      for b in bindings where !(live && BoardSession.notForALiveProgram(b.action) != nil) {
        var keys = b.keysLabel(ascii: ascii)
        // Opposite keys share a line (`↑↓ kj`, `< >`): the first one's description covers both.
        if HelpOverlay.pairs.values.contains(b.action),
          bindings.contains(where: { HelpOverlay.pairs[$0.action] == b.action })
        {
          continue
        }
        if let second = HelpOverlay.pairs[b.action],
          let other = bindings.first(where: { $0.action == second })
        {
          let (u, d) = (
            b.keys.map { $0.label(ascii: ascii) }, other.keys.map { $0.label(ascii: ascii) }
          )
          keys =
            b.action != .up
            ? (u + d).joined(separator: " ")
            : ascii
              ? zip(u, d).map { "\($0)/\($1)" }.joined(separator: " ")
              : zip(u, d).map { $0 + $1 }.joined(separator: " ")
        }
        let wrapped = TextWrap.wrap(b.description, width: max(10, width - Self.helpKeyWidth - 2))
        lines.append(.key(keys: keys, description: wrapped.first ?? ""))
        for more in wrapped.dropFirst() { lines.append(.continuation(more)) }
      }
      return lines
    }
    var sections: [[HelpLine]] = []
    if let type = ViewRegistry.type(of: view) {
      // Moves are listed once, not for every page and end.
      let own = keyMap.bindings(in: .view(view)).filter {
        ![.pageUp, .pageDown, .first, .last, .wheel].contains($0.action)
      }
      var lines = section(type.title, own)
      if let beneath = viewBeneath, let under = ViewRegistry.type(of: beneath) {
        // Under a moment's caption: the keys of the view underneath work too.
        let shadowed = Set(own.flatMap(\.keys).map { $0.label(ascii: false) })
        let theirs = keyMap.bindings(in: .view(beneath)).filter { b in
          ![.pageUp, .pageDown, .first, .last, .wheel].contains(b.action)
            && !own.contains { $0.action == b.action }
            && !b.keys.allSatisfy { shadowed.contains($0.label(ascii: false)) }
        }
        sections.append(lines)
        lines = section("\(under.title), under the caption", theirs)
      }
      lines.append(.continuation("PgUp PgDn Home End, the wheel: further"))
      sections.append(lines)
    }
    for group in KeyBinding.Group.allCases {
      let bindings = keyMap.bindings(in: .global).filter { $0.group == group }
      if !bindings.isEmpty { sections.append(section(group.rawValue, bindings)) }
    }
    sections.append(legends())
    return sections
  }

  static let helpKeyWidth = 9

  private func legends() -> [HelpLine] {
    let finishedStyle = StateLook.style(.finished)
    let waiting = Style(fg: .yellow, attrs: .bold)
    let statuses: [ConditionInfo.Status] = [
      .waiting, .evaluating, .satisfied, .failed, .waitingForExclusivity, .holdsLock, .released,
    ]
    return [
      .heading("States (one colour each, everywhere)"),
      .legend(
        OperationState.allCases.map {
          (String(StateLook.glyph($0, ascii: ascii)), $0.rawValue, StateLook.style($0))
        }
          + [
            (
              String(StateLook.cancelledGlyph(ascii: ascii)), "cancelled (a flag)",
              StateLook.cancelled
            )
          ]),
      .heading("Conditions"),
      .legend(
        statuses.map {
          (
            String(ConditionLook.glyph($0, ascii: ascii)), ConditionLook.word($0),
            ConditionLook.style($0)
          )
        }),
      .heading("Dependencies and arrows"),
      .legend([
        ("1/3", "deps: one of three finished", waiting), ("3/3", "all finished", finishedStyle),
      ]),
      .legend([
        (ascii ? "a <-- b" : "a ◄── b", "means b waits for a;", .plain),
        (ascii ? "b -> a" : "b → a", "too", .plain),
      ]),
      .legend([
        ("d", "timeline: the selected one waits for it", waiting),
        ("w", "it waits for the selected one", waiting),
      ]),
    ]
  }

  /// Laid out for a column width: legends wrap onto as many rows as their items need.
  typealias HelpRow = (line: HelpLine, items: [(glyph: String, text: String, style: Style)])

  func helpRows(_ section: [HelpLine], width: Int) -> [HelpRow] {
    var rows: [HelpRow] = []
    for line in section {
      guard case .legend(let items) = line else {
        rows.append((line, []))
        continue
      }
      var current: [(glyph: String, text: String, style: Style)] = []
      var used = 0
      for item in items {
        let w = item.glyph.count + item.text.count + 4
        if used + w > width && !current.isEmpty {
          rows.append((line, current))
          current = []
          used = 0
        }
        current.append(item)
        used += w
      }
      rows.append((line, current))
    }
    return rows
  }

  /// The help flowed into as few columns as fit the screen without scrolling (up to three, each
  /// at least 34 wide), with a blank line between sections when there is room for it; a column
  /// never ends on a heading. When even three do not fit, one column that scrolls.
  func helpColumns(for view: BoardView, inner: Int, room: Int) -> (width: Int, columns: [[HelpRow]])
  {
    for n in 1...3 {
      // One column reads best up to 100 wide; more columns share the box.
      let width = n == 1 ? min(inner, 100) : (inner - 3 * (n - 1)) / n
      guard n == 1 || width >= 34 else { break }
      let sections = helpSections(for: view, width: width).map { helpRows($0, width: width) }
      for gaps in [true, false] {
        var columns: [[HelpRow]] = [[]]
        for (i, section) in sections.enumerated() {
          var rows = section
          if gaps && i > 0 { rows.insert((.blank, []), at: 0) }
          for row in rows {
            var column = columns[columns.count - 1]
            let full = column.count >= room
            let headingAtBottom: Bool = {
              if case .heading = row.line { return column.count >= room - 1 }
              return false
            }()
            if full || headingAtBottom {
              columns.append([])
              column = []
              if case .blank = row.line { continue }
            }
            column.append(row)
            columns[columns.count - 1] = column
          }
        }
        if columns.count <= n { return (width, columns) }
      }
    }
    let width = min(inner, 100)
    let sections = helpSections(for: view, width: width).map { helpRows($0, width: width) }
    return (width, [Array(sections.joined(separator: [(HelpLine.blank, [])]))])
  }
}

/// The help over the board: drawn over the whole area it is given (the screen), centred, between
/// its header row and its status and footer rows. Its scroll position is the overlay's, read back.
struct HelpPane: Pane {
  var overlay: HelpOverlay
  /// The shown view, whose own keys come first.
  let view: BoardView

  mutating func render(_ area: Rect, _ frame: inout BoardRenderer) {
    let (width, height, ascii, keyMap) = (area.width, area.height, frame.ascii, frame.keyMap)
    let boxWidth = min(width - 2, 160)
    let inner = boxWidth - 4
    // Between the header and the status line, which says what a key did.
    let room = height - 3 - 2
    let (columnWidth, columns) = HelpLayout(context: frame.context).helpColumns(
      for: view, inner: inner, room: room)
    let tallest = columns.map(\.count).max() ?? 0
    let boxHeight = min(height - 3, tallest + 2)
    let usedWidth = columns.count > 1 ? boxWidth : min(boxWidth, columnWidth + 4)
    let box = Rect(
      x: area.x + (width - usedWidth) / 2, y: area.y + max(1, (height - boxHeight) / 2),
      width: usedWidth,
      height: boxHeight)
    // A blank margin keeps the board behind from running into the box.
    let margin = Rect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2)
    frame.canvas.fill(
      Rect(
        x: margin.x, y: max(area.y + 1, margin.y), width: margin.width,
        height: min(margin.maxY, area.maxY - 2) - max(area.y + 1, margin.y)))
    let close = keyMap.bindings(in: .help).first { $0.action == .help }
    let keys =
      close.map { $0.keys.prefix(3).map { $0.label(ascii: ascii) }.joined(separator: " ") } ?? "?"
    frame.canvas.box(
      box, title: "Help · clock paused while it is open · \(keys) close",
      style: Style(fg: .cyan, attrs: .bold))
    let visible = boxHeight - 2
    overlay.scroll.fit(total: tallest, visible: visible)
    for (c, rows) in columns.enumerated() {
      let x = box.x + 2 + c * (columnWidth + 3)
      for (i, row) in rows.dropFirst(overlay.scroll.top).prefix(visible).enumerated() {
        Self.drawRow(row, on: &frame.canvas, x: x, y: box.y + 1 + i, width: columnWidth)
      }
    }
    if tallest > visible {
      let more =
        overlay.scroll.hasMore(total: tallest)
        ? (ascii ? "more below (Up/Down scroll)" : "↓ more (↑↓ scroll)")
        : (ascii ? "at the end (Up/Down scroll)" : "↑ top (↑↓ scroll)")
      frame.canvas.putRight(" \(more) ", maxX: box.maxX - 2, y: box.maxY - 1, style: .dim)
    }
  }

  private static func drawRow(
    _ row: HelpLayout.HelpRow, on canvas: inout Canvas, x: Int, y: Int, width: Int
  ) {
    switch row.line {
    case .heading(let t): canvas.put(t, x: x, y: y, width: width, style: .title)
    case .key(let keys, let d):
      let k = HelpLayout.helpKeyWidth
      canvas.put(keys, x: x + 1, y: y, width: k, style: Style(fg: .cyan, attrs: .bold))
      canvas.put(d, x: x + k + 2, y: y, width: width - k - 2)
    case .continuation(let d):
      canvas.put(
        d, x: x + HelpLayout.helpKeyWidth + 2, y: y, width: width - HelpLayout.helpKeyWidth - 2)
    case .legend:
      var lx = x + 1
      for item in row.items {
        let g = canvas.put(item.glyph, x: lx, y: y, style: item.style)
        lx += g + 1
        lx += canvas.put(item.text, x: lx, y: y, width: width - (lx - x), style: .dim) + 3
      }
    case .blank: break
    }
  }
}
