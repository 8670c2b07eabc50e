import OpsEngine

extension BoardRenderer {
  /// The whole dependency graph, left to right by dependency depth, edges coloured by the state of the
  /// operation they come from. Scrolls to keep the selected operation in view; draws only what shows.
  mutating func drawGraph(_ r: Rect, _ ui: inout BoardUIState) {
    if ui.graph?.structureVersion != model.structureVersion { ui.graph = DAGLayout(model: model) }
    let dag = ui.graph!
    var title =
      "Dependency graph · \(model.operations.count) operations in \(dag.layers.count) columns by depth"
    if dag.cycleEdges > 0 {
      title +=
        " · ↺ in a cycle (\(dag.cycleEdges) closing edge\(dag.cycleEdges == 1 ? "" : "s") not drawn)"
    }
    canvas.titleRule(title, in: r.rows(from: 0, count: 1), right: "Enter detail · Esc back")
    let view = r.rows(from: 1, count: r.height - 1)
    guard !dag.layers.isEmpty, !view.isEmpty else {
      canvas.put(" no operations yet", x: view.x, y: view.y, style: .dim)
      return
    }
    let xs = dag.columnX
    // Keep the selection in view.
    if ui.selectedOperation < dag.nodeOfOperation.count {
      let node = dag.nodes[dag.nodeOfOperation[ui.selectedOperation]]
      let nx = xs[node.layer]
      let nw = dag.columnWidth(node.layer)
      if node.row < ui.graphScrollY { ui.graphScrollY = node.row }
      if node.row >= ui.graphScrollY + view.height { ui.graphScrollY = node.row - view.height + 1 }
      if nx < ui.graphScrollX { ui.graphScrollX = max(0, nx - 1) }
      if nx + nw > ui.graphScrollX + view.width { ui.graphScrollX = nx + nw - view.width + 1 }
    }
    // Never scrolled further than the graph needs.
    let graphWidth = (xs.last ?? 0) + dag.columnWidth(dag.layers.count - 1) + 1
    let graphHeight = dag.layers.map(\.count).max() ?? 0
    ui.graphScrollX = max(0, min(ui.graphScrollX, graphWidth - view.width))
    ui.graphScrollY = max(0, min(ui.graphScrollY, graphHeight - view.height))
    let sx = ui.graphScrollX
    let sy = ui.graphScrollY
    let top = sy
    let bottom = sy + view.height - 1
    var lines = EdgeGrid()
    func visibleX(_ x: Int) -> Bool { x - sx >= 0 && x - sx < view.width }
    for l in dag.layers.indices {
      let x = xs[l]
      let columnEnd = x + dag.columnWidth(l) + dag.channelWidth(l)
      guard columnEnd > sx, x < sx + view.width else { continue }
      // Nodes of this column in the visible rows.
      for id in dag.layers[l].dropFirst(top).prefix(view.height) {
        let node = dag.nodes[id]
        guard let i = node.op else { continue }
        stats.graphNodesDrawn += 1
        let op = model.operations[i]
        let y = view.y + node.row - sy
        var style = StateLook.style(op.state)
        if op.inCycle && op.state < .ready { style = Style(fg: .red, attrs: .bold) }
        let selected = i == ui.selectedOperation
        if selected { style.attrs.formUnion([.reverse, .bold]) }
        let gx = view.x + x - sx
        canvas.set(StateLook.glyph(op.state, ascii: ascii), x: gx, y: y, style: style)
        let w = canvas.put(
          op.name, x: gx + 2, y: y, width: min(dag.nameWidth[l], view.maxX - gx - 2), style: style)
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
        let style = Style(fg: StateLook.color(model.operations[from.source].state))
        let startX: Int
        if let i = from.op {
          startX =
            x + 3 + min(model.operations[i].name.count, dag.nameWidth[l])
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
          lines.horizontal(y: y0, from: startX - sx, to: laneX - sx, style: style)
        }
        lines.vertical(
          x: laneX - sx, from: max(min(y0, y1), -1), to: min(max(y0, y1), view.height), style: style
        )
        if to.row >= top && to.row <= bottom {
          lines.horizontal(y: y1, from: laneX - sx, to: endX - sx, style: style)
          if to.op != nil && visibleX(endX) {
            lines.arrow(x: endX - sx, y: y1, pointing: true, style: style)
          }
        }
      }
    }
    lines.draw(into: &canvas, offsetX: view.x, offsetY: view.y, clip: view)
  }
}
