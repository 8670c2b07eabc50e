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
  /// The queues pane is hidden here, so the queue keys act on the selected operation's queue.
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("select the operation") + OperationKeys.bindings + [
      KeyBinding(
        .suspendResume, [.char("s")], "suspend or resume the selected operation's queue",
        group: .engine, footer: "suspend"),
      KeyBinding(
        .raiseLimit, [.char("+"), .char("=")], "raise its queue's limit by one", group: .engine,
        footer: "limit"),
      KeyBinding(
        .lowerLimit, [.char("-"), .char("_")], "lower its queue's limit by one", group: .engine,
        footer: "limit"),
    ]
  static let footer: [BoardAction] = [
    .up, .down, .pauseResume, .step, .nextMoment, .cancelOperation, .suspendResume, .back,
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
    if [.suspendResume, .raiseLimit, .lowerLimit].contains(action),
      let op = context.shared.selectedRow(in: context.model),
      let q = context.model.index(ofQueue: op.queue)
    {
      context.shared.selectedQueue = q
    }
    return false
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    // The why text first: in full, as many rows as it needs (up to a third of the screen).
    let why = renderer.explanationLines(shared, width: r.width)
    let whyRows = min(why.count, max(2, r.height / 3))
    // The last key and its effect, above the why text, so the room hears what was just done.
    let keyLines =
      renderer.lastKey.map { TextWrap.wrap($0.effect, width: r.width - 4 - $0.key.count) } ?? []
    // Two rows where there is room; at 80×24 one, so the state machine still fits.
    let keyRows = min(keyLines.count, r.height >= 26 ? 2 : 1)
    let top = Rect(x: r.x, y: r.y, width: r.width, height: r.height - whyRows - keyRows)
    let machineWidth = max(StateMachineDiagram.minimumWidth + 2, min(50, r.width * 55 / 100))
    // The diagram's last row is a blank margin: at 80×24 the key line may take it.
    let showMachine = top.width - machineWidth >= 30 && top.height >= StateMachineDiagram.height
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
    // Below the table and the diagram: cleared first, so nothing drawn above runs into it.
    renderer.canvas.fill(Rect(x: r.x, y: top.maxY, width: r.width, height: r.maxY - top.maxY))
    if let last = renderer.lastKey {
      let y = top.maxY
      let keyStyle = Style(attrs: [.reverse, .bold])
      let x = r.x + 1 + renderer.canvas.put(" \(last.key) ", x: r.x + 1, y: y, style: keyStyle)
      // On one row the whole sentence is cut with an ellipsis, not wrapped.
      let lines = keyRows == 1 ? [last.effect] : Array(keyLines.prefix(keyRows))
      for (i, line) in lines.enumerated() {
        renderer.canvas.put(line, x: x + 1, y: y + i, width: r.maxX - x - 1, style: .bold)
      }
    }
    renderer.drawExplanation(
      Rect(x: r.x, y: r.maxY - whyRows, width: r.width, height: whyRows), Array(why.prefix(whyRows))
    )
  }
}

extension BoardSession {
  /// Opens the presenter layout (`play --present`).
  public func present() {
    // A moment reached before the layout was chosen (one at 0 s, shown as the board starts) keeps
    // its caption, now over the presenter.
    if ui.view == .moment, var moment = ui.views[.moment] as? MomentView {
      moment.overPresenter = true
      ui.views[.moment] = moment
      ui.returnView = .presenter
      return
    }
    open(.presenter)
  }

  /// Whether the presenter layout is on screen, itself or under a moment's caption or a question,
  /// or is where the detail view returns to (a moment or question reached there goes over it).
  var isPresenting: Bool {
    switch ui.view {
    case .presenter: true
    case .detail: ui.returnView == .presenter
    case .moment: (ui.views[.moment] as? MomentView)?.overPresenter == true
    case .quiz: (ui.views[.quiz] as? QuizView)?.overPresenter == true
    default: false
    }
  }
}
