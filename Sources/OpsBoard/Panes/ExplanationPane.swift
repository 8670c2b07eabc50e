import OpsEngine
import OpsEvents

/// The why lines under the operations table.
struct ExplanationPane: Pane {
  var lines: [Pieces]

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    for (i, line) in lines.prefix(r.height).enumerated() {
      var x = r.x + 1
      for piece in line {
        x += frame.canvas.put(piece.text, x: x, y: r.y + i, width: r.maxX - x, style: piece.style)
      }
    }
  }

  /// `why rateApp: waiting for the Alert exclusivity lock held by banner`, from the engine's
  /// projection, wrapped under its text onto as many rows as it needs (the layout gives them, up to
  /// `maxRows`, by default `BoardLayout.maximumExplanationRows`; a longer one ends in …). Each line
  /// is styled pieces.
  static func lines(
    _ shared: SharedState, in model: BoardModel, width: Int,
    maxRows: Int = BoardLayout.maximumExplanationRows, missedEvents: Bool = false
  ) -> [Pieces] {
    let lead = "why "
    if let op = shared.selectedRow(in: model) {
      let head = op.name + ": "
      let indent = min(lead.count + head.count, width / 3)
      // Every line is as wide as the first: the rest hang under the text, not under "why".
      var lines = TextWrap.wrap(
        Self.explanation(of: op, in: model, missedEvents: missedEvents),
        width: max(10, width - 2 - indent))
      let cap = max(1, maxRows)
      if lines.count > cap {
        lines = Array(lines.prefix(cap))
        lines[cap - 1] = String(lines[cap - 1].prefix(max(1, width - 4))) + " …"
      }
      return lines.enumerated().map { i, line in
        if i == 0 {
          return [(lead, .title), (head, .bold), (line, .plain)]
        }
        return [(String(repeating: " ", count: indent), .plain), (line, .plain)]
      }
    }
    // Selected but not on screen: an operation not added yet at the moment shown, or filtered out.
    if let name = shared.selected, model.operation(named: name) == nil, !model.operations.isEmpty {
      return [[(lead, .title), (name + ": ", .bold), ("not added yet at this moment", .dim)]]
    }
    return [[]]
  }

  /// The projection's explanation, or what the operation is doing when nothing holds it
  /// (`missedEvents`: see `Projection.whyWaiting`).
  static func explanation(of op: OperationInfo, in model: BoardModel, missedEvents: Bool = false)
    -> String
  {
    if let why = model.whyWaiting(op.name, missedEvents: missedEvents) { return why }
    switch op.state {
    case .executing: return "executing: nothing holds it"
    case .finishing: return "finishing: its observers are being told"
    case .finished:
      return op.cancelled
        ? "finished (cancelled)" : op.errors.isEmpty ? "finished" : "finished with errors"
    default: return op.state.rawValue
    }
  }
}
