import OpsCells
import OpsEngine
import OpsEvents

/// The dependency graph laid out by `layout`, scrolled to keep the selected operation in view
/// (the scroll position is read back); only the nodes and edges in its rectangle are drawn.
struct GraphPane: Pane {
  /// The graph view's layout, read only.
  let layout: DAGLayout
  let selection: SharedState
  var scrollX: Int
  var scrollY: Int

  mutating func render(_ r: Rect, _ frame: inout BoardRenderer) {
    let (model, ascii, dag, shared) = (frame.model, frame.ascii, layout, selection)
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
    frame.canvas.titleRule(title, in: r.rows(from: 0, count: 1))
    frame.canvas.putRight(
      " \(legend) ", maxX: r.maxX - 1, minX: r.x, y: r.maxY - 1, style: .dim)
    // The last row is the legend.
    let area = r.rows(from: 1, count: r.height - 2)
    guard !dag.layers.isEmpty, !area.isEmpty else {
      frame.canvas.put(" no operations yet", x: area.x, y: area.y, style: .dim)
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
    scrollY = ScrollWindow.top(
      scrollY, keeping: node?.row, visible: area.height, count: graphHeight)
    if let n = node {
      let nx = xs[n.layer]
      let nw = dag.columnWidth(n.layer)
      if nx < scrollX { scrollX = max(0, nx - 1) }
      if nx + nw > scrollX + area.width { scrollX = nx + nw - area.width + 1 }
    }
    scrollX = max(0, min(scrollX, graphWidth - area.width))
    let sx = scrollX
    let sy = scrollY
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
        frame.stats.graphNodesDrawn += 1
        let op = model.operations[i]
        let y = area.y + node.row - sy
        var style = StateLook.style(op.state)
        if op.inCycle && op.state < .ready { style = Style(fg: .red, attrs: .bold) }
        let selected = i == selectedIndex
        if selected { style.attrs.formUnion([.reverse, .bold]) }
        let gx = area.x + x - sx
        frame.canvas.set(StateLook.glyph(op.state, ascii: ascii), x: gx, y: y, style: style)
        let w = frame.canvas.put(
          op.name, x: gx + 2, y: y, width: min(dag.nameWidth[l], area.maxX - gx - 2), style: style)
        if op.cancelled {
          frame.canvas.set(
            StateLook.cancelledGlyph(ascii: ascii), x: gx + 3 + w, y: y, style: StateLook.cancelled)
        } else if op.inCycle {
          frame.canvas.set("↺", x: gx + 3 + w, y: y, style: Style(fg: .red, attrs: .bold))
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
    lines.draw(into: &frame.canvas, offsetX: area.x, offsetY: area.y, clip: area)
  }
}
