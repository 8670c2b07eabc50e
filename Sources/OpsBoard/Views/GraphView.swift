import OpsCells
import OpsEngine
import OpsEvents

extension BoardView {
  public static let graph = BoardView("graph")
}

/// The whole dependency graph, left to right by dependency depth, edges coloured by the state of the
/// operation they come from. Scrolls to keep the selected operation in view; draws only what shows.
struct GraphView: ViewComponent {
  static let id = BoardView.graph
  static let title = "In the graph"
  static let opener: KeyBinding? = KeyBinding(
    BoardAction("open.graph"), [.char("g")], "graph of every dependency, left to right",
    group: .views, footer: "graph")
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("select the operation") + OperationKeys.bindings
  static let footer: [BoardAction] = [
    .up, .down, .pauseResume, .step, .openDetail, .cancelOperation, .back,
  ]

  var scrollX = 0
  var scrollY = 0
  /// Rebuilt only when operations or edges are added.
  var layout: DAGLayout?
  /// While playing, the next layout, built a budget of work per frame (see `DAGLayoutBuilder`).
  var building: DAGLayoutBuilder?

  /// Units of layout work a frame does while playing: a fraction of a millisecond (reading an
  /// operation's edges is the dearest unit), where a whole layout of 10,000 operations takes
  /// several frames' budget. A layout of a few hundred operations fits in a single frame.
  static let layoutWorkPerFrame = 1_500

  /// Brings the layout up to the model. Paused, with no layout yet, or when the model has fewer
  /// operations than the layout (a restart, time travel), it is built at once; while playing, the
  /// layout shown is the last complete one and the next is built over the following frames.
  mutating func updateLayout(for model: BoardModel, playing: Bool) {
    if let b = building, b.count > model.operations.count { building = nil }
    guard let current = layout, playing, current.nodeOfOperation.count <= model.operations.count
    else {
      if layout?.structureVersion != model.structureVersion
        || (layout?.nodeOfOperation.count ?? 0) > model.operations.count
      {
        layout = DAGLayout(model: model)
      }
      building = nil
      return
    }
    guard current.structureVersion != model.structureVersion else { return }
    if building == nil { building = DAGLayoutBuilder(model: model) }
    if building!.advance(model, budget: Self.layoutWorkPerFrame) {
      layout = building!.layout
      building = nil
    }
  }

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    guard let delta = SelectionMoves.delta(action, input: input, page: 10) else { return false }
    context.status = context.shared.moveSelection(by: delta, in: context.model)
    return true
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    renderer.drawGraph(r, shared, &self)
  }
}

extension BoardRenderer {
  mutating func drawGraph(_ r: Rect, _ shared: SharedState, _ view: inout GraphView) {
    let playing = !info.paused && !info.finished && info.showingPast == nil
    view.updateLayout(for: model, playing: playing)
    let dag = view.layout!
    var title =
      "Dependency graph · \(model.operations.count) operations in \(dag.layers.count) columns by depth"
    let legend =
      ascii
      ? "a <-- b: b waits for a; .. group and children; *.. produced"
      : "a ◄── b: b waits for a · ┄ group and children · ◇┄ produced"
    if dag.cycleEdges > 0 {
      title +=
        " · ↺ in a cycle (\(dag.cycleEdges) closing edge\(dag.cycleEdges == 1 ? "" : "s") not drawn)"
    }
    canvas.titleRule(title, in: r.rows(from: 0, count: 1))
    canvas.putRight(" \(legend) ", maxX: r.maxX - 1, y: r.maxY - 1, style: .dim)
    // The last row is the legend.
    let area = r.rows(from: 1, count: r.height - 2)
    guard !dag.layers.isEmpty, !area.isEmpty else {
      canvas.put(" no operations yet", x: area.x, y: area.y, style: .dim)
      return
    }
    let xs = dag.columnX
    // Keep the selection in view.
    let selectedIndex = shared.selectedIndex(in: model)
    let node = selectedIndex.flatMap {
      $0 < dag.nodeOfOperation.count ? dag.nodes[dag.nodeOfOperation[$0]] : nil
    }
    // Never scrolled further than the graph needs; the selection kept in view both ways.
    let graphWidth = (xs.last ?? 0) + dag.columnWidth(dag.layers.count - 1) + 1
    let graphHeight = dag.layers.map(\.count).max() ?? 0
    view.scrollY = ScrollWindow.top(
      view.scrollY, keeping: node?.row, visible: area.height, count: graphHeight)
    if let n = node {
      let nx = xs[n.layer]
      let nw = dag.columnWidth(n.layer)
      if nx < view.scrollX { view.scrollX = max(0, nx - 1) }
      if nx + nw > view.scrollX + area.width { view.scrollX = nx + nw - area.width + 1 }
    }
    view.scrollX = max(0, min(view.scrollX, graphWidth - area.width))
    let sx = view.scrollX
    let sy = view.scrollY
    let top = sy
    let bottom = sy + area.height - 1
    var lines = EdgeGrid()
    func visibleX(_ x: Int) -> Bool { x - sx >= 0 && x - sx < area.width }
    for l in dag.layers.indices {
      let x = xs[l]
      let columnEnd = x + dag.columnWidth(l) + dag.channelWidth(l)
      guard columnEnd > sx, x < sx + area.width else { continue }
      // Nodes of this column in the visible rows.
      for id in dag.layers[l].dropFirst(top).prefix(area.height) {
        let node = dag.nodes[id]
        guard let i = node.op else { continue }
        stats.graphNodesDrawn += 1
        let op = model.operations[i]
        let y = area.y + node.row - sy
        var style = StateLook.style(op.state)
        if op.inCycle && op.state < .ready { style = Style(fg: .red, attrs: .bold) }
        let selected = i == selectedIndex
        if selected { style.attrs.formUnion([.reverse, .bold]) }
        let gx = area.x + x - sx
        canvas.set(StateLook.glyph(op.state, ascii: ascii), x: gx, y: y, style: style)
        let w = canvas.put(
          op.name, x: gx + 2, y: y, width: min(dag.nameWidth[l], area.maxX - gx - 2), style: style)
        if op.cancelled {
          canvas.set(
            StateLook.cancelledGlyph(ascii: ascii), x: gx + 3 + w, y: y, style: StateLook.cancelled)
        } else if op.inCycle {
          canvas.set("↺", x: gx + 3 + w, y: y, style: Style(fg: .red, attrs: .bold))
        }
      }
      // Edges into the next column.
      guard l + 1 < dag.layers.count else { continue }
      let laneX0 = x + dag.columnWidth(l) + 1
      let nextX = xs[l + 1]
      for e in dag.edges[l] {
        let from = dag.nodes[e.from]
        let to = dag.nodes[e.to]
        guard max(from.row, to.row) >= top, min(from.row, to.row) <= bottom else { continue }
        var style = Style(fg: StateLook.color(model.operations[from.source].state))
        if e.kind == .produced { style.attrs.insert(.dim) }
        let dashed = e.kind != .dependency
        let startX: Int
        if let i = from.op {
          startX =
            x + 3 + CellWidth.columns(of: model.operations[i].name, upTo: dag.nameWidth[l])
            + (model.operations[i].cancelled || model.operations[i].inCycle ? 2 : 0)
        } else {
          startX = x
        }
        let laneX = laneX0 + dag.lane[e.from]
        let endX = to.op == nil ? nextX : nextX - 2
        // In screen coordinates, vertical spans clipped to the view so long edges cost no more.
        let y0 = from.row - sy
        let y1 = to.row - sy
        if from.row >= top && from.row <= bottom {
          lines.horizontal(
            y: y0, from: startX - sx, to: laneX - sx, style: style, dashed: dashed)
          // The head points at what is waited for (the dependency, the group's child); a produced
          // operation's edge starts with a plain mark instead.
          if from.op != nil && visibleX(startX) {
            if e.kind == .produced {
              lines.mark(ascii ? "*" : "◇", x: startX - sx, y: y0, style: style)
            } else {
              lines.arrow(x: startX - sx, y: y0, pointing: false, style: style)
            }
          }
        }
        lines.vertical(
          x: laneX - sx, from: max(min(y0, y1), -1), to: min(max(y0, y1), area.height),
          style: style, dashed: dashed)
        if to.row >= top && to.row <= bottom {
          lines.horizontal(y: y1, from: laneX - sx, to: endX - sx, style: style, dashed: dashed)
        }
      }
    }
    lines.draw(into: &canvas, offsetX: area.x, offsetY: area.y, clip: area)
  }
}
