import OpsEngine
import OpsEvents

/// The operations table: a title saying what is filtered and how it is sorted, the columns the
/// scenario needs (`ColumnPlan`), one row per operation shown, the selected one highlighted.
struct OperationsPane: Pane {
  /// The selection, the filters and the sort.
  var selection: SharedState
  /// The first row shown: moved so the selected operation is in view.
  var scroll: Int

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let list = selection.operations
    let count = list.count(frame.model)
    var title = "Operations"
    var right = "\(frame.model.operations.count)"
    var notes: [String] = []
    if !list.query.isEmpty { notes.append("filter \"\(list.query)\"") }
    if let q = list.queueFilter { notes.append("queue \(q)") }
    if let f = list.stateFilter { notes.append(f.rawValue) }
    if list.hideFinished { notes.append("finished hidden") }
    let arrow = list.descending ? (frame.ascii ? "v" : "▼") : (frame.ascii ? "^" : "▲")
    if list.sort != .added || list.descending { notes.append("by \(list.sort.rawValue) \(arrow)") }
    if !notes.isEmpty { title += " · " + notes.joined(separator: " · ") }
    if list.isFiltered { right = "\(count) of \(frame.model.operations.count)" }
    frame.canvas.titleRule(title, in: r, right: right)
    guard r.height >= 2 else { return }
    let plan = ColumnPlan(
      width: r.width,
      // Room for the warning mark after a name, once anything is warned, and for the tree.
      longestName: frame.model.longestOperationName + (frame.model.warnings.isEmpty ? 0 : 2)
        + (list.depth.isEmpty ? 0 : 4),
      longestQueue: frame.model.longestQueueName, needs: ColumnNeeds(frame.model))
    for c in plan.columns {
      var header = c.column.header
      if c.column == list.sort.column { header += " " + arrow }
      let style = Style.dim.with(.underline)
      if c.column == .time {
        frame.canvas.putRight(header, maxX: r.x + c.x + c.width, y: r.y + 1, style: style)
      } else {
        frame.canvas.put(header, x: r.x + c.x, y: r.y + 1, width: c.width, style: style)
      }
    }
    let rows = r.rows(from: 2, count: r.height - 2)
    guard !rows.isEmpty else { return }
    if count == 0 {
      let text =
        !list.isFiltered
        ? " no operations yet"
        : list.query.isEmpty
          ? " nothing to show: Esc clears the filters"
          : " nothing matches \"\(list.query)\" (Esc clears the filter)"
      frame.canvas.put(text, x: rows.x, y: rows.y, width: rows.width, style: .dim)
      return
    }
    let selectedIndex = selection.selectedIndex(in: frame.model)
    let focus = selectedIndex.flatMap { i in
      list.position(of: i).exact ? list.position(of: i).position : nil
    }
    scroll = ScrollWindow.top(scroll, keeping: focus, visible: rows.height, count: count)
    for line in 0..<rows.height {
      let position = scroll + line
      guard position < count else { break }
      let index = list.modelIndex(at: position)
      Self.drawRow(
        frame.model.operations[index], plan: plan, x: rows.x, y: rows.y + line, width: rows.width,
        selected: index == selectedIndex, tree: Self.treeMark(index, list, frame), &frame)
    }
    if count > rows.height {
      // A scroll position mark on the title rule: first–last of count.
      let last = min(count, scroll + rows.height)
      frame.canvas.putRight(
        " \(scroll + 1)–\(last) of \(count) ", maxX: r.maxX - 1, y: r.y, style: .rule)
    }
  }

  /// The indentation and expand mark of a row when groups show their children under them.
  static func treeMark(_ index: Int, _ list: OperationList, _ frame: BoardRenderer) -> String {
    guard !list.depth.isEmpty else { return "" }
    let indent = String(repeating: "  ", count: list.depth[index])
    guard list.childCount[index] > 0 else { return indent + "  " }
    let open = !list.collapsed.contains(frame.model.operations[index].name)
    return indent + (open ? (frame.ascii ? "- " : "▾ ") : (frame.ascii ? "+ " : "▸ "))
  }

  static func drawRow(
    _ op: OperationInfo, plan: ColumnPlan, x x0: Int, y: Int, width: Int, selected: Bool,
    tree: String = "", _ frame: inout BoardRenderer
  ) {
    frame.stats.operationRowsDrawn += 1
    frame.canvas.put(selected ? "›" : " ", x: x0, y: y, style: .bold)
    for c in plan.columns {
      let x = x0 + c.x
      let w = c.width
      switch c.column {
      case .name:
        let warned = !frame.model.warnings(about: op.name).isEmpty
        let t = frame.canvas.put(tree, x: x, y: y, width: w - 1, style: .dim, ellipsis: false)
        let n = frame.canvas.put(
          op.name, x: x + t, y: y, width: (warned ? w - 2 : w) - t,
          style: selected ? .bold : .plain)
        if warned { frame.canvas.set(frame.ascii ? "!" : "⚠", x: x + t + n + 1, y: y, style: .bad) }
      case .queue:
        frame.canvas.put(op.queue, x: x, y: y, width: w)
      case .priority:
        frame.canvas.put(
          op.priority.rawValue, x: x, y: y, width: w, style: op.priority == .normal ? .dim : .plain)
      case .qos:
        frame.canvas.put(
          BoardText.qos(op.qos), x: x, y: y, width: w, style: op.qos == .default ? .dim : .plain)
      case .state:
        let style = StateLook.style(op.state)
        frame.canvas.set(StateLook.glyph(op.state, ascii: frame.ascii), x: x, y: y, style: style)
        frame.canvas.put(StateLook.word(op.state), x: x + 2, y: y, width: w - 2, style: style)
      case .cancelled:
        if op.cancelled {
          frame.canvas.set(
            StateLook.cancelledGlyph(ascii: frame.ascii), x: x, y: y, style: StateLook.cancelled)
        }
      case .time:
        frame.canvas.putRight(
          durationText(op.timeInState(at: frame.model.now)), maxX: x + w, y: y, style: .dim)
      case .progress:
        if let p = op.progress(at: frame.model.now) {
          drawProgress(
            p, x: x, y: y, width: w, style: StateLook.style(.executing), canvas: &frame.canvas)
        } else if op.state == .executing {
          frame.canvas.put(
            op.kind == .group ? "children" : "running", x: x, y: y, width: w, style: .dim)
        }
      case .deps:
        drawDependencyMarks(op, x: x, y: y, width: w, &frame)
      case .conditions:
        var cx = x
        for (i, cond) in op.conditions.enumerated() {
          if cx >= x + w - 1 && i < op.conditions.count - 1 {
            frame.canvas.set("…", x: cx, y: y, style: .dim)
            break
          }
          frame.canvas.set(
            ConditionLook.glyph(cond.status, ascii: frame.ascii), x: cx, y: y,
            style: ConditionLook.style(cond.status))
          cx += 1
        }
      case .errors:
        if !op.errors.isEmpty {
          frame.canvas.put(
            op.errors.joined(separator: "; "), x: x, y: y, width: w, style: Style(fg: .red))
        }
      }
    }
    if selected { frame.canvas.highlight(Rect(x: x0, y: y, width: width, height: 1), .reverse) }
  }

  /// `1/3`: finished of all its dependencies (the same in ASCII), or `cycle`.
  static func drawDependencyMarks(
    _ op: OperationInfo, x: Int, y: Int, width: Int, _ frame: inout BoardRenderer
  ) {
    guard !op.dependencies.isEmpty else { return }
    if op.inCycle && op.state < .ready {
      frame.canvas.put("cycle", x: x, y: y, width: width, style: Style(fg: .red, attrs: .bold))
      return
    }
    let (done, total) = frame.model.dependencyProgress(of: op)
    frame.canvas.put(
      "\(done)/\(total)", x: x, y: y, width: width,
      style: done == total ? StateLook.style(.finished) : Style(fg: .yellow, attrs: .bold))
  }

  /// A bar with eighth-cell precision (`#` and `-` in ASCII).
  static func drawProgress(
    _ fraction: Double, x: Int, y: Int, width: Int, style: Style, canvas: inout Canvas
  ) {
    let ascii = canvas.ascii
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
