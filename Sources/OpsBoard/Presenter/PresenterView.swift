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

  /// The table keeps at least its title, its header and this many rows.
  static let minimumTableRows = 4

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    draw(r, &renderer, &shared, leaving: 0)
  }

  /// Draws the layout with `reserved` rows left blank under the table and the state machine, above
  /// the last key's line and the why text (a moment's caption goes there, so neither is covered);
  /// returns those rows.
  @discardableResult
  mutating func draw(
    _ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState, leaving reserved: Int
  ) -> Rect {
    // The why text and the last key's effect in full, wrapped, never cut: the table and the state
    // machine take the rest (the table at least its title, header and a few rows).
    let why = ExplanationPane.lines(
      shared, in: renderer.model, width: r.width, maxRows: .max,
      missedEvents: renderer.info.missedEvents)
    // ` s ` reversed, a space, then the effect: it wraps under itself.
    let keyLines =
      renderer.lastKey.map { TextWrap.wrap($0.effect, width: r.width - 4 - $0.key.count) } ?? []
    let room = max(0, r.height - reserved - Self.minimumTableRows - 2)
    var keyRows = keyLines.count
    var whyRows = why.count
    if keyRows + whyRows > room {
      keyRows = min(keyLines.count, max(1, room - why.count))
      whyRows = min(why.count, max(1, room - keyRows))
    }
    let top = Rect(
      x: r.x, y: r.y, width: r.width, height: max(0, r.height - reserved - whyRows - keyRows))
    let machineWidth = max(StateMachineDiagram.minimumWidth + 2, min(50, r.width * 55 / 100))
    // The diagram always whole; its title, flags and last move where there is room (at 80×24 with a
    // caption and a two-line effect, the selected row of the table says which operation it is).
    let showMachine =
      top.width - machineWidth >= 30 && top.height >= StateMachineDiagram.diagramHeight
    let titled = top.height > StateMachineDiagram.diagramHeight
    let tableWidth = showMachine ? top.width - machineWidth - 1 : top.width
    var table = OperationsPane(selection: shared, scroll: scroll)
    table.render(Rect(x: top.x, y: top.y, width: tableWidth, height: top.height), &renderer)
    scroll = table.scroll
    if showMachine {
      let x = top.x + tableWidth + 1
      for y in top.y..<top.maxY { renderer.canvas.set("│", x: x - 1, y: y, style: .rule) }
      let op = shared.selectedRow(in: renderer.model)
      var y = top.y
      if titled {
        renderer.canvas.titleRule(
          "State machine" + (op.map { " · \($0.name)" } ?? ""),
          in: Rect(x: x, y: y, width: machineWidth, height: 1))
        y += 1
      }
      StateMachinePane(operation: op).render(
        Rect(
          x: x, y: y, width: machineWidth, height: min(StateMachineDiagram.height, top.maxY - y)),
        &renderer)
    }
    // Below the table and the diagram: cleared first, so nothing drawn above runs into it.
    renderer.canvas.fill(Rect(x: r.x, y: top.maxY, width: r.width, height: r.maxY - top.maxY))
    let gap = Rect(x: r.x, y: top.maxY, width: r.width, height: reserved)
    if let last = renderer.lastKey, keyRows > 0 {
      let y = gap.maxY
      let keyStyle = Style(attrs: [.reverse, .bold])
      let x = r.x + 1 + renderer.canvas.put(" \(last.key) ", x: r.x + 1, y: y, style: keyStyle)
      for (i, line) in keyLines.prefix(keyRows).enumerated() {
        renderer.canvas.put(line, x: x + 1, y: y + i, width: r.maxX - x - 1, style: .bold)
      }
    }
    ExplanationPane(lines: Array(why.prefix(whyRows))).render(
      Rect(x: r.x, y: r.maxY - whyRows, width: r.width, height: whyRows), &renderer)
    return gap
  }
}

extension BoardSession {
  /// Opens the presenter layout (`play --present`).
  public func present() {
    // A moment reached before the layout was chosen (one at 0 s, shown as the board starts) keeps
    // its caption, now over the presenter.
    if ui.view == .moment {
      ui.views.moment.overPresenter = true
      ui.returnView = .presenter
      return
    }
    open(.presenter)
  }

  /// Whether the presenter layout is on screen, itself or under a moment's caption or a question,
  /// or is where the view shown returns to (a moment or question reached there goes over it).
  var isPresenting: Bool {
    for view in [ui.view] + ui.trail.reversed() {
      switch view {
      case .presenter: return true
      case .moment: return ui.views.moment.overPresenter
      case .quiz: return ui.views.quiz.overPresenter
      case .board: return false
      default: continue
      }
    }
    return false
  }
}
