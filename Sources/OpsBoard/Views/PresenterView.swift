extension BoardView {
  /// A layout for a projector: the operations table and the selected operation's state machine
  /// large, the why line wrapped in full; queues, side panes and the log hidden.
  public static let presenter = BoardView("presenter")
}

extension BoardAction {
  public static let presenter = BoardAction("presenter")
}

struct PresenterView: ViewComponent {
  static let id = BoardView.presenter
  static let title = "Presenting"
  static let opener: KeyBinding? = KeyBinding(
    .presenter, [.char("P")], "presenter layout, for a projector (again: back)",
    group: .views)
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("select the operation") + OperationKeys.bindings
  static let footer: [BoardAction] = [
    .up, .down, .pauseResume, .step, .nextMoment, .cancelOperation, .back,
  ]

  var scroll = 0

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    if let delta = SelectionMoves.delta(action, input: input, page: 5) {
      context.status = context.shared.moveSelection(by: delta, in: context.model)
      return true
    }
    return false
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    // The why text first: in full, as many rows as it needs (up to a third of the screen).
    let why = renderer.explanationLines(shared, width: r.width)
    let whyRows = min(why.count, max(2, r.height / 3))
    let top = Rect(x: r.x, y: r.y, width: r.width, height: r.height - whyRows)
    let machineWidth = max(StateMachineDiagram.minimumWidth + 2, min(50, r.width * 55 / 100))
    let showMachine = top.width - machineWidth >= 30 && top.height >= StateMachineDiagram.height + 1
    let tableWidth = showMachine ? top.width - machineWidth - 1 : top.width
    renderer.drawOperations(
      Rect(x: top.x, y: top.y, width: tableWidth, height: top.height), shared, scroll: &scroll)
    if showMachine {
      let x = top.x + tableWidth + 1
      for y in top.y..<top.maxY { renderer.canvas.set("│", x: x - 1, y: y, style: .rule) }
      let op = shared.selectedRow(in: renderer.model)
      renderer.canvas.titleRule(
        "State machine" + (op.map { " · \($0.name)" } ?? ""),
        in: Rect(x: x, y: top.y, width: machineWidth, height: 1))
      StateMachineDiagram.draw(
        op, in: Rect(x: x, y: top.y + 1, width: machineWidth, height: StateMachineDiagram.height),
        canvas: &renderer.canvas)
    }
    renderer.drawExplanation(
      Rect(x: r.x, y: r.maxY - whyRows, width: r.width, height: whyRows), Array(why.prefix(whyRows))
    )
  }
}

extension BoardSession {
  /// Opens the presenter layout (`play --present`).
  public func present() { open(.presenter) }
}
