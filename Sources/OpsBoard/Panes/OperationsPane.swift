import OpsEngine

/// The operations table's columns, in display order.
enum OperationColumn: CaseIterable {
  case name, queue, priority, qos, state, cancelled, time, progress, deps, conditions, errors

  var header: String {
    switch self {
    case .name: "operation"
    case .queue: "queue"
    case .priority: "priority"
    case .qos: "qos"
    case .state: "state"
    case .cancelled: "✕"
    case .time: "in state"
    case .progress: "progress"
    case .deps: "deps"
    case .conditions: "cond"
    case .errors: "errors"
    }
  }

  var minWidth: Int {
    switch self {
    case .name: 9
    case .queue: 6
    case .priority: 8
    case .qos: 11
    case .state: 12
    case .cancelled: 1
    case .time: 8
    case .progress: 8
    case .deps: 5
    case .conditions: 4
    case .errors: 10
    }
  }

  /// Which columns survive on a narrow screen, most important first.
  static let byImportance: [OperationColumn] = [
    .name, .state, .cancelled, .time, .progress, .queue, .deps, .errors, .conditions, .priority,
    .qos,
  ]
}

/// Where each column goes for a table width: columns are added by priority while they fit, then the
/// name, queue and errors columns share what is left.
struct ColumnPlan {
  var columns: [(column: OperationColumn, x: Int, width: Int)]

  init(width: Int, longestName: Int, longestQueue: Int) {
    let available = width - 2  // selection marker and a margin
    var chosen: [OperationColumn: Int] = [:]
    var used = 0
    for c in OperationColumn.byImportance {
      let w = c.minWidth + (chosen.isEmpty ? 0 : 1)
      if used + w <= available {
        chosen[c] = c.minWidth
        used += w
      }
    }
    // Grow the name and queue to their longest and the progress bar a little; errors take the rest.
    let grow: [(OperationColumn, Int)] = [
      (.name, min(max(longestName, 9), 22)), (.queue, min(max(longestQueue, 5), 14)),
      (.progress, 16),
    ]
    for (c, want) in grow
    where chosen[c] != nil {
      let extra = min(want - chosen[c]!, available - used)
      if extra > 0 {
        chosen[c]! += extra
        used += extra
      }
    }
    if chosen[.errors] != nil { chosen[.errors]! += available - used }
    var x = 2
    columns = []
    for c in OperationColumn.allCases {
      guard let w = chosen[c] else { continue }
      columns.append((c, x, w))
      x += w + 1
    }
  }
}

extension BoardRenderer {
  mutating func drawOperations(_ r: Rect, _ ui: inout BoardUIState) {
    let list = ui.operations
    let count = list.count(model)
    var title = "Operations"
    var right = "\(model.operations.count)"
    if list.isFiltered {
      title += " · filter \"\(list.query)\""
      right = "\(count) of \(model.operations.count)"
    }
    canvas.titleRule(title, in: r, right: right)
    guard r.height >= 2 else { return }
    let plan = ColumnPlan(
      width: r.width,
      // Room for the warning mark after a name, once anything is warned.
      longestName: model.longestOperationName + (model.warnings.isEmpty ? 0 : 2),
      longestQueue: model.longestQueueName)
    for c in plan.columns {
      if c.column == .time {
        canvas.putRight(
          c.column.header, maxX: r.x + c.x + c.width, y: r.y + 1, style: .dim.with(.underline))
      } else {
        canvas.put(
          c.column.header, x: r.x + c.x, y: r.y + 1, width: c.width, style: .dim.with(.underline))
      }
    }
    let rows = r.rows(from: 2, count: r.height - 2)
    guard !rows.isEmpty else { return }
    if count == 0 {
      let text =
        list.isFiltered
        ? " nothing matches \"\(list.query)\" (Esc clears the filter)" : " no operations yet"
      canvas.put(text, x: rows.x, y: rows.y, width: rows.width, style: .dim)
      return
    }
    // Keep the selection in view.
    let selectedPosition = list.position(of: ui.selectedOperation).position
    if selectedPosition < ui.operationsScroll { ui.operationsScroll = selectedPosition }
    if selectedPosition >= ui.operationsScroll + rows.height {
      ui.operationsScroll = selectedPosition - rows.height + 1
    }
    ui.operationsScroll = max(0, min(ui.operationsScroll, count - rows.height))
    for line in 0..<rows.height {
      let position = ui.operationsScroll + line
      guard position < count else { break }
      let index = list.modelIndex(at: position)
      drawOperationRow(
        model.operations[index], plan: plan, x: rows.x, y: rows.y + line, width: rows.width,
        selected: index == ui.selectedOperation)
    }
    if count > rows.height {
      // A scroll position mark on the title rule: first–last of count.
      let last = min(count, ui.operationsScroll + rows.height)
      canvas.putRight(
        " \(ui.operationsScroll + 1)–\(last) of \(count) ", maxX: r.maxX - 1, y: r.y, style: .rule)
    }
  }

  mutating func drawOperationRow(
    _ op: OperationInfo, plan: ColumnPlan, x x0: Int, y: Int, width: Int, selected: Bool
  ) {
    stats.operationRowsDrawn += 1
    canvas.put(selected ? "›" : " ", x: x0, y: y, style: .bold)
    for c in plan.columns {
      let x = x0 + c.x
      let w = c.width
      switch c.column {
      case .name:
        let warned = !model.warnings(about: op.name).isEmpty
        canvas.put(
          op.name, x: x, y: y, width: warned ? w - 2 : w, style: selected ? .bold : .plain)
        if warned {
          canvas.set(
            ascii ? "!" : "⚠", x: x + min(op.name.count, w - 2) + 1, y: y, style: .bad)
        }
      case .queue:
        canvas.put(op.queue, x: x, y: y, width: w)
      case .priority:
        canvas.put(
          op.priority.rawValue, x: x, y: y, width: w, style: op.priority == .normal ? .dim : .plain)
      case .qos:
        canvas.put(
          Vocabulary.qos(op.qos), x: x, y: y, width: w, style: op.qos == .default ? .dim : .plain)
      case .state:
        let style = StateLook.style(op.state)
        canvas.set(StateLook.glyph(op.state, ascii: ascii), x: x, y: y, style: style)
        canvas.put(StateLook.word(op.state), x: x + 2, y: y, width: w - 2, style: style)
      case .cancelled:
        if op.cancelled {
          canvas.set(StateLook.cancelledGlyph(ascii: ascii), x: x, y: y, style: StateLook.cancelled)
        }
      case .time:
        canvas.putRight(durationText(op.timeInState(at: model.now)), maxX: x + w, y: y, style: .dim)
      case .progress:
        if let p = op.progress(at: model.now) {
          drawProgress(p, x: x, y: y, width: w, style: StateLook.style(.executing))
        } else if op.state == .executing {
          canvas.put(op.kind == .group ? "children" : "running", x: x, y: y, width: w, style: .dim)
        }
      case .deps:
        drawDependencyMarks(op, x: x, y: y, width: w)
      case .conditions:
        var cx = x
        for (i, cond) in op.conditions.enumerated() {
          if cx >= x + w - 1 && i < op.conditions.count - 1 {
            canvas.set("…", x: cx, y: y, style: .dim)
            break
          }
          canvas.set(
            ConditionLook.glyph(cond.status, ascii: ascii), x: cx, y: y,
            style: ConditionLook.style(cond.status))
          cx += 1
        }
      case .errors:
        if !op.errors.isEmpty {
          canvas.put(
            op.errors.joined(separator: "; "), x: x, y: y, width: w, style: Style(fg: .red))
        }
      }
    }
    if selected { canvas.highlight(Rect(x: x0, y: y, width: width, height: 1), .reverse) }
  }

  /// `✓2…1`: finished and waiting dependencies (`2/3` in ASCII), or `cycle`.
  mutating func drawDependencyMarks(_ op: OperationInfo, x: Int, y: Int, width: Int) {
    guard !op.dependencies.isEmpty else { return }
    if op.inCycle && op.state < .ready {
      canvas.put("cycle", x: x, y: y, width: width, style: Style(fg: .red, attrs: .bold))
      return
    }
    let (done, total) = model.dependencyProgress(of: op)
    if ascii {
      canvas.put("\(done)/\(total)", x: x, y: y, width: width, style: done == total ? .dim : .bold)
      return
    }
    var cx = x
    if done > 0 {
      cx += canvas.put("✓\(done)", x: cx, y: y, width: width, style: StateLook.style(.finished))
    }
    if total > done {
      canvas.put(
        "…\(total - done)", x: cx, y: y, width: x + width - cx,
        style: Style(fg: .yellow, attrs: .bold))
    }
  }

  /// A bar with eighth-cell precision (`#` and `-` in ASCII).
  mutating func drawProgress(_ fraction: Double, x: Int, y: Int, width: Int, style: Style) {
    guard width > 0 else { return }
    let eighths = Int((fraction * Double(width * 8)).rounded(.down))
    let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    for i in 0..<width {
      let filled = eighths - i * 8
      let ch: Character
      if ascii {
        ch = filled >= 4 ? "#" : "-"
      } else {
        ch = filled >= 8 ? "█" : filled > 0 ? partials[filled - 1] : "·"
      }
      canvas.set(ch, x: x + i, y: y, style: filled > 0 ? style : .dim)
    }
  }
}
