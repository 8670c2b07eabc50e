import OpsEngine
import OpsEvents

/// The state machine of one operation (or of none: every state dim), as `StateMachineDiagram`
/// draws it.
struct StateMachinePane: Pane {
  var operation: OperationInfo?

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    StateMachineDiagram.draw(operation, in: r, canvas: &frame.canvas)
  }
}

/// The lifecycle diagram, drawn top to bottom with the two shortcuts on the right: pending → ready
/// (no conditions, or cancelled) and ready → finishing (cancelled or failed conditions: main() never runs).
/// A mutual-exclusivity category is a condition (ProcedureKit's `MutuallyExclusive`): such an operation
/// goes through evaluatingConditions and waits there for its lock, so the shortcut is not for it.
enum StateMachineDiagram {
  /// Rows of the diagram itself, and with the flags and last-transition lines under it.
  static let diagramHeight = 13
  static let height = 18
  static let minimumWidth = 36

  static let rows: [OperationState: Int] = [
    .initialized: 0, .pending: 2, .evaluatingConditions: 4, .ready: 6, .executing: 8,
    .finishing: 10,
    .finished: 12,
  ]

  /// The transitions an operation made, in order: the path drawn heavy.
  static func taken(_ op: OperationInfo?) -> Set<[OperationState]> {
    let states = op?.history.map(\.state) ?? []
    return Set(zip(states, states.dropFirst()).map { [$0, $1] })
  }

  /// The path taken is drawn heavy and bold in the colour of the state it led to (`━┃` in Unicode,
  /// `=#` in ASCII); edges not taken are thin and dim; states visited are in their colour, the others
  /// dim; the current state is reversed. So the path reads in colour, in monochrome and in ASCII.
  static func draw(_ op: OperationInfo?, in r: Rect, canvas: inout Canvas) {
    let trunk = r.x + 1
    let branch = r.x + 25
    let last = op?.lastTransition
    let visited = Set(op?.history.map(\.state) ?? [])
    let path = taken(op)
    var edges = EdgeGrid()
    func edgeStyle(_ from: OperationState, _ to: OperationState) -> (Style, Bool) {
      guard path.contains([from, to]) else { return (.dim, false) }
      return (StateLook.style(to).with(.bold), true)
    }
    // The trunk: each state to the next.
    let chain: [OperationState] = OperationState.allCases
    for (from, to) in zip(chain, chain.dropFirst()) {
      let (style, heavy) = edgeStyle(from, to)
      edges.vertical(
        x: trunk, from: r.y + rows[from]!, to: r.y + rows[to]!, style: style, heavy: heavy)
    }
    // pending → ready, around evaluatingConditions.
    do {
      let (style, heavy) = edgeStyle(.pending, .ready)
      let y0 = r.y + rows[.pending]!
      let y1 = r.y + rows[.ready]!
      edges.horizontal(
        y: y0, from: trunk + 2 + "pending".count + 1, to: branch, style: style, heavy: heavy)
      edges.vertical(x: branch, from: y0, to: y1, style: style, heavy: heavy)
      edges.horizontal(
        y: y1, from: trunk + 2 + "ready".count + 1, to: branch, style: style, heavy: heavy)
      edges.arrow(x: trunk + 2 + "ready".count + 1, y: y1, pointing: false, style: style)
    }
    // ready → finishing, around executing.
    do {
      let (style, heavy) = edgeStyle(.ready, .finishing)
      let y0 = r.y + rows[.ready]! + 1
      let y1 = r.y + rows[.finishing]!
      edges.horizontal(y: y0, from: trunk, to: branch, style: style, heavy: heavy)
      edges.vertical(x: branch, from: y0, to: y1, style: style, heavy: heavy)
      edges.horizontal(
        y: y1, from: trunk + 2 + "finishing".count + 1, to: branch, style: style, heavy: heavy)
      edges.arrow(x: trunk + 2 + "finishing".count + 1, y: y1, pointing: false, style: style)
    }
    // Nodes (drawn before the edges so the trunk glyphs on their rows are the states' own).
    for state in chain {
      let y = r.y + rows[state]!
      var style = visited.contains(state) ? StateLook.style(state) : Style.dim
      if state == op?.state { style = StateLook.style(state).with([.reverse, .bold]) }
      canvas.set(StateLook.glyph(state, ascii: canvas.ascii), x: trunk, y: y, style: style)
      canvas.put(state.rawValue, x: trunk + 2, y: y, width: branch - trunk - 3, style: style)
      if state == op?.state && op?.cancelled == true {
        canvas.put(
          " \(StateLook.cancelledGlyph(ascii: canvas.ascii))", x: trunk + 2 + state.rawValue.count,
          y: y, style: StateLook.cancelled)
      }
    }
    // Edges, but never over a state's glyph.
    drawEdges(edges, trunk: trunk, r: r, canvas: &canvas)
    // Labels beside the shortcuts. "no conditions" includes no exclusivity category (see above).
    let labelX = branch + 2
    let labelWidth = r.maxX - labelX
    if labelWidth >= 8 {
      canvas.put("no conditions", x: labelX, y: r.y + 3, width: labelWidth, style: .dim)
      canvas.put("or cancelled", x: labelX, y: r.y + 4, width: labelWidth, style: .dim)
      canvas.put("cancelled:", x: labelX, y: r.y + 8, width: labelWidth, style: .dim)
      canvas.put("skips main()", x: labelX, y: r.y + 9, width: labelWidth, style: .dim)
    }
    // The four NSOperation flags, and the last transition.
    let flags = op?.flags ?? OperationFlags(state: .initialized, cancelled: false)
    let items: [(String, Bool)] = [
      ("isReady", flags.isReady), ("isExecuting", flags.isExecuting),
      ("isFinished", flags.isFinished),
      ("isCancelled", flags.isCancelled),
    ]
    let flagY = r.y + diagramHeight + 1
    let twoPerRow = r.width < 78
    // A short rect (the presenter at 80×24 with a caption) keeps the diagram and drops these.
    guard flagY + (twoPerRow ? 2 : 1) <= r.maxY else { return }
    for (i, item) in items.enumerated() {
      let x = twoPerRow ? r.x + 1 + (i % 2) * 19 : r.x + 1 + i * 19
      let y = twoPerRow ? flagY + i / 2 : flagY
      canvas.put("\(item.0)=\(item.1)", x: x, y: y, width: 19, style: item.1 ? .good : .dim)
    }
    if let l = last {
      // On one line when it fits, else the time on a line of its own.
      let move = "\(l.from.rawValue) → \(l.to.rawValue)"
      let style = StateLook.style(l.to).with(.bold)
      let y = flagY + (twoPerRow ? 2 : 1)
      let oneLine = "last: \(move) at \(clockText(l.time))s"
      if oneLine.count <= r.width - 1 {
        guard y < r.maxY else { return }
        canvas.put(oneLine, x: r.x + 1, y: y, width: r.width - 1, style: style)
      } else {
        guard y + 1 < r.maxY else { return }
        canvas.put(
          "last transition, at \(clockText(l.time))s:", x: r.x + 1, y: y, width: r.width - 1,
          style: style)
        canvas.put(move, x: r.x + 1, y: y + 1, width: r.width - 1, style: style)
      }
    }
  }

  private static func drawEdges(_ edges: EdgeGrid, trunk: Int, r: Rect, canvas: inout Canvas) {
    let stateRows = Set(rows.values.map { r.y + $0 })
    for (p, c) in edges.cells {
      // A state's own glyph sits on the trunk at its row.
      if p.x == trunk && stateRows.contains(p.y) { continue }
      guard r.contains(x: p.x, y: p.y) else { continue }
      var style = c.style
      if c.heavy { style.attrs.insert(.bold) }
      canvas.set(
        EdgeGrid.glyph(c.sides, heavy: c.heavy, dashed: c.dashed, ascii: canvas.ascii), x: p.x,
        y: p.y, style: style)
    }
    for (p, a) in edges.arrows where r.contains(x: p.x, y: p.y) {
      canvas.set(a.glyph, x: p.x, y: p.y, style: a.style)
    }
  }
}
