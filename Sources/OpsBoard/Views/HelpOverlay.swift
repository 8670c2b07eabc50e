import OpsEngine

extension BoardRenderer {
  /// One line of the help: a group title, a key and what it does, or a legend.
  enum HelpLine {
    case heading(String)
    case key(keys: String, description: String)
    case continuation(String)
    case legend([(glyph: Character, text: String, style: Style)])
    case blank
  }

  /// The help's lines for a width: every binding of the key map by group (so help and footer always
  /// agree with what the keys do), then the legend of glyphs.
  func helpLines(width: Int) -> [HelpLine] {
    let keyWidth = 10
    var lines: [HelpLine] = []
    for group in KeyBinding.Group.allCases {
      let bindings = keyMap.bindings.filter { $0.group == group }
      guard !bindings.isEmpty else { continue }
      if !lines.isEmpty { lines.append(.blank) }
      lines.append(.heading(group.rawValue))
      for b in bindings {
        let wrapped = TextWrap.wrap(b.description, width: max(10, width - keyWidth - 2))
        lines.append(.key(keys: b.keysLabel(ascii: ascii), description: wrapped.first ?? ""))
        for more in wrapped.dropFirst() { lines.append(.continuation(more)) }
      }
    }
    lines.append(.blank)
    lines.append(.heading("States (one colour each, everywhere)"))
    lines.append(
      .legend(
        OperationState.allCases.map {
          (StateLook.glyph($0, ascii: ascii), $0.rawValue, StateLook.style($0))
        }
          + [(StateLook.cancelledGlyph(ascii: ascii), "cancelled (a flag)", StateLook.cancelled)]))
    lines.append(.heading("Conditions"))
    let statuses: [ConditionInfo.Status] = [
      .waiting, .evaluating, .satisfied, .failed, .waitingForExclusivity, .holdsLock, .released,
    ]
    lines.append(
      .legend(
        statuses.map {
          (ConditionLook.glyph($0, ascii: ascii), ConditionLook.word($0), ConditionLook.style($0))
        }))
    lines.append(.heading("Dependencies"))
    lines.append(
      .legend(
        ascii
          ? [("2", "/3: two of three finished", .plain)]
          : [
            ("✓", "finished", StateLook.style(.finished)),
            ("…", "still waiting", Style(fg: .yellow, attrs: .bold)),
          ]))
    return lines
  }

  /// Help lines laid out for a column width: legends wrap onto as many rows as their items need.
  typealias HelpRow = (line: HelpLine, items: [(Character, String, Style)])

  func helpRows(width: Int) -> [HelpRow] {
    var rows: [HelpRow] = []
    for line in helpLines(width: width) {
      guard case .legend(let items) = line else {
        rows.append((line, []))
        continue
      }
      var current: [(Character, String, Style)] = []
      var used = 0
      for item in items {
        let w = item.text.count + 4
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

  /// The help over the board: one column, or two when one would not fit and the screen is wide.
  mutating func drawHelp(_ ui: inout BoardUIState) {
    let boxWidth = min(width - 2, 104)
    let inner = boxWidth - 4
    var columns = [helpRows(width: inner)]
    let room = height - 2 - 2
    if columns[0].count > room && inner >= 90 {
      let half = (inner - 3) / 2
      let rows = helpRows(width: half)
      // Split at the heading nearest the middle, so no group is cut in two.
      let headings = rows.indices.filter {
        if case .heading = rows[$0].line { true } else { false }
      }
      let cut =
        headings.min { abs($0 - rows.count / 2) < abs($1 - rows.count / 2) } ?? rows.count / 2
      var right = Array(rows[cut...])
      if case .blank? = right.first?.line { right.removeFirst() }
      columns = [Array(rows[..<cut]), right]
    }
    let tallest = columns.map(\.count).max() ?? 0
    let boxHeight = min(height - 2, tallest + 2)
    let box = Rect(
      x: (width - boxWidth) / 2, y: max(1, (height - boxHeight) / 2), width: boxWidth,
      height: boxHeight)
    // A blank margin keeps the board behind from running into the box.
    let margin = Rect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2)
    canvas.fill(
      Rect(
        x: margin.x, y: max(1, margin.y), width: margin.width,
        height: min(margin.maxY, height - 1) - max(1, margin.y)))
    let helpKey = keyMap.binding(for: .help)?.keys.first?.label(ascii: ascii) ?? "?"
    canvas.box(box, title: "Help · \(helpKey) or Esc closes", style: Style(fg: .cyan, attrs: .bold))
    let visible = boxHeight - 2
    ui.helpScroll = max(0, min(ui.helpScroll, tallest - visible))
    let columnWidth = columns.count == 1 ? inner : (inner - 3) / 2
    for (c, rows) in columns.enumerated() {
      let x = box.x + 2 + c * (columnWidth + 3)
      for (i, row) in rows.dropFirst(ui.helpScroll).prefix(visible).enumerated() {
        drawHelpRow(row, x: x, y: box.y + 1 + i, width: columnWidth)
      }
    }
    if tallest > visible {
      let more = ui.helpScroll + visible < tallest ? "↓ more (↑↓ scroll)" : "↑ top (↑↓ scroll)"
      canvas.putRight(" \(more) ", maxX: box.maxX - 2, y: box.maxY - 1, style: .dim)
    }
  }

  private mutating func drawHelpRow(_ row: HelpRow, x: Int, y: Int, width: Int) {
    switch row.line {
    case .heading(let t): canvas.put(t, x: x, y: y, width: width, style: .title)
    case .key(let keys, let d):
      canvas.put(keys, x: x + 1, y: y, width: 10, style: Style(fg: .cyan, attrs: .bold))
      canvas.put(d, x: x + 12, y: y, width: width - 12)
    case .continuation(let d): canvas.put(d, x: x + 12, y: y, width: width - 12)
    case .legend:
      var lx = x + 1
      for item in row.items {
        canvas.set(item.0, x: lx, y: y, style: item.2)
        lx +=
          2 + canvas.put(item.1, x: lx + 2, y: y, width: width - (lx - x) - 2, style: item.2) + 2
      }
    case .blank: break
    }
  }
}
