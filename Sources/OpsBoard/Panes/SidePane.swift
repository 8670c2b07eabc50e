import OpsEngine
import OpsEvents

/// The selected operation at a glance: who it waits for and who waits for it, where it is in the
/// lifecycle, its flags, conditions and errors (the board's side column, when the screen is wide).
struct SidePane: Pane {
  var selection: SharedState

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    guard let op = selection.selectedRow(in: frame.model) else {
      frame.canvas.titleRule("Selected operation", in: r.rows(from: 0, count: 1))
      frame.canvas.put(" none: the list is empty", x: r.x, y: r.y + 1, width: r.width, style: .dim)
      return
    }
    var y = r.y
    frame.canvas.titleRule(op.name, in: r.rows(from: 0, count: 1))
    y += 1
    var facts =
      " \(op.queue) · \(op.kind.rawValue) · \(op.priority.rawValue) · qos \(BoardText.qos(op.qos))"
    if let g = op.parent { facts += " · child of \(g)" }
    if let p = op.producedBy { facts += " · made by \(p)" }
    frame.canvas.put(facts, x: r.x, y: y, width: r.width, style: .dim)
    y += 1
    var x = r.x + 1
    let look = StateLook.style(op.state)
    frame.canvas.set(StateLook.glyph(op.state, ascii: frame.ascii), x: x, y: y, style: look)
    x += 2
    x += frame.canvas.put(op.state.rawValue, x: x, y: y, style: look.with(.bold))
    x += frame.canvas.put(
      " for \(durationText(op.timeInState(at: frame.model.now)))", x: x, y: y, style: .dim)
    if op.cancelled {
      frame.canvas.put(
        "  \(StateLook.cancelledGlyph(ascii: frame.ascii)) cancelled"
          + (op.cancelCause.map { " (\($0.rawValue))" } ?? ""),
        x: x, y: y, width: r.maxX - x, style: StateLook.cancelled)
    }
    y += 1
    let bottom = r.maxY
    // Dependencies: as many rows as needed, up to 8, leaving room for the state machine if it fits.
    let wanted = max(op.dependencies.count, op.dependents.count, 1)
    let roomForMachine = bottom - y - 2 - StateMachineDiagram.height >= 2
    let depRows = min(
      wanted, 8, max(1, bottom - y - 1 - (roomForMachine ? StateMachineDiagram.height + 2 : 3)))
    frame.canvas.titleRule(
      "Dependencies", in: Rect(x: r.x, y: y, width: r.width, height: 1),
      right: frame.ascii ? "<-- points at what is waited for" : "◄ points at what is waited for")
    y += 1
    Self.drawDependencyGraph(op, in: Rect(x: r.x, y: y, width: r.width, height: depRows), &frame)
    y += depRows
    if roomForMachine && r.width >= StateMachineDiagram.minimumWidth {
      frame.canvas.titleRule("State machine", in: Rect(x: r.x, y: y, width: r.width, height: 1))
      y += 1
      StateMachinePane(operation: op).render(
        Rect(x: r.x, y: y, width: r.width, height: StateMachineDiagram.height), &frame)
      y += StateMachineDiagram.height
    } else if y < bottom {
      let f = op.flags
      frame.canvas.put(
        " isReady=\(f.isReady) isExecuting=\(f.isExecuting) isFinished=\(f.isFinished) isCancelled=\(f.isCancelled)",
        x: r.x, y: y, width: r.width, style: .dim)
      y += 1
    }
    guard y + 1 < bottom else { return }
    frame.canvas.titleRule("Conditions & errors", in: Rect(x: r.x, y: y, width: r.width, height: 1))
    y += 1
    Self.drawConditionsAndErrors(
      op, in: Rect(x: r.x, y: y, width: r.width, height: bottom - y), &frame.canvas)
  }

  /// One line per condition with its status, then the errors.
  static func drawConditionsAndErrors(_ op: OperationInfo, in r: Rect, _ canvas: inout Canvas) {
    let ascii = canvas.ascii
    var y = r.y
    if op.conditions.isEmpty && op.errors.isEmpty {
      canvas.put(" no conditions, no errors", x: r.x, y: y, width: r.width, style: .dim)
      return
    }
    for c in op.conditions where y < r.maxY {
      let style = ConditionLook.style(c.status)
      canvas.set(ConditionLook.glyph(c.status, ascii: ascii), x: r.x + 1, y: y, style: style)
      canvas.put(ConditionLook.describe(c), x: r.x + 3, y: y, width: r.width - 3, style: style)
      y += 1
    }
    for e in op.errors where y < r.maxY {
      canvas.put(" error: " + e, x: r.x, y: y, width: r.width, style: Style(fg: .red))
      y += 1
    }
  }

  /// The operations it waits for on the left, those waiting for it on the right, joined by edges in
  /// the colour of the dependency's state (green once it finished).
  static func drawDependencyGraph(
    _ op: OperationInfo, in r: Rect, _ frame: inout BoardRenderer
  ) {
    let model = frame.model
    let ascii = frame.ascii
    guard r.height > 0, r.width > 20 else { return }
    if op.dependencies.isEmpty && op.dependents.isEmpty {
      frame.canvas.put(
        " none, either way", x: r.x, y: r.y, width: r.width,
        style: .dim)
      return
    }
    func capped(_ names: [String]) -> (shown: [String], more: Int) {
      names.count <= r.height
        ? (names, 0) : (Array(names.prefix(r.height - 1)), names.count - r.height + 1)
    }
    let left = capped(op.dependencies)
    let right = capped(op.dependents)
    let leftRows = left.shown.count + (left.more > 0 ? 1 : 0)
    let rightRows = right.shown.count + (right.more > 0 ? 1 : 0)
    let n = max(leftRows, rightRows, 1)
    let centerY = r.y + (n - 1) / 2
    let inner = r.width - 2
    let centerWidth = min(op.name.count + 2, max(8, inner / 3))
    // The left labels take what their names need, up to half of what the centre leaves.
    let longestLeft =
      left.shown.map { $0.count + (model.operation(named: $0) == nil ? 14 : 2) }.max() ?? 0
    let sideWidth = max(4, min(longestLeft + 2, (inner - centerWidth - 10) / 2))
    let leftX = r.x + 1
    let join1 = leftX + sideWidth + 1
    // Arrow heads sit one cell before what they point at, with a space between.
    let centerX = left.shown.isEmpty ? leftX : join1 + 4
    let shownName = min(op.name.count, centerWidth - 2)
    let centerEnd = centerX + 2 + shownName
    let join2 = centerEnd + 2
    let rightX = join2 + 4
    var edges = EdgeGrid()
    let opStyle = StateLook.style(op.state)
    func label(_ name: String, x: Int, y: Int, width: Int, canvas: inout Canvas) -> Int {
      let state = model.operation(named: name)?.state
      let style = state.map(StateLook.style) ?? .dim
      canvas.set(state.map { StateLook.glyph($0, ascii: ascii) } ?? "?", x: x, y: y, style: style)
      return 2
        + canvas.put(
          state == nil ? name + " (not added)" : name, x: x + 2, y: y, width: width - 2,
          style: style)
    }
    for (i, name) in left.shown.enumerated() {
      let y = r.y + i
      let end = leftX + label(name, x: leftX, y: y, width: sideWidth, canvas: &frame.canvas)
      let color = model.operation(named: name).map { StateLook.style($0.state) } ?? .dim
      edges.horizontal(y: y, from: end + 1, to: join1, style: Style(fg: color.fg))
      edges.arrow(x: end + 1, y: y, pointing: false, style: Style(fg: color.fg))
      edges.vertical(x: join1, from: y, to: centerY, style: Style(fg: color.fg))
    }
    if left.more > 0 {
      frame.canvas.put(
        "+\(left.more) more", x: leftX, y: r.y + left.shown.count, width: sideWidth, style: .dim)
    }
    if !left.shown.isEmpty {
      edges.horizontal(y: centerY, from: join1, to: centerX - 2, style: Style(fg: .gray))
    }
    frame.canvas.set(
      StateLook.glyph(op.state, ascii: ascii), x: centerX, y: centerY, style: opStyle.with(.bold))
    frame.canvas.put(
      op.name, x: centerX + 2, y: centerY, width: shownName, style: opStyle.with([.bold, .reverse]))
    if !right.shown.isEmpty {
      let style = Style(fg: opStyle.fg)
      edges.horizontal(y: centerY, from: centerEnd + 1, to: join2, style: style)
      edges.arrow(x: centerEnd + 1, y: centerY, pointing: false, style: style)
      for (i, name) in right.shown.enumerated() {
        let y = r.y + i
        edges.vertical(x: join2, from: centerY, to: y, style: style)
        edges.horizontal(y: y, from: join2, to: rightX - 2, style: style)
        _ = label(name, x: rightX, y: y, width: r.maxX - rightX, canvas: &frame.canvas)
      }
      if right.more > 0 {
        frame.canvas.put(
          "+\(right.more) more", x: rightX, y: r.y + right.shown.count, width: r.maxX - rightX,
          style: .dim)
      }
    }
    edges.draw(into: &frame.canvas, clip: r)
  }
}
