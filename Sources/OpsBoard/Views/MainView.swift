import OpsEngine
import OpsEvents

extension BoardView {
  /// Queues, operations, why the selected one waits, the newest events, and (when wide) the selected
  /// operation's dependencies and state machine.
  public static let board = BoardView("board")
}

extension BoardAction {
  static let filter = BoardAction("filter")
  static let sort = BoardAction("sort")
  static let reverseSort = BoardAction("reverseSort")
  static let hideFinished = BoardAction("hideFinished")
  static let queueFilter = BoardAction("queueFilter")
  static let stateFilter = BoardAction("stateFilter")
  static let expandGroup = BoardAction("expandGroup")
}

/// Keys of the views that show the selected operation (board, graph, timeline).
enum OperationKeys {
  static let detail = KeyBinding(
    .openDetail, [.key(.enter)], "details of the selected operation", group: .views,
    footer: "detail")
  static let cancel = KeyBinding(
    .cancelOperation, [.char("c"), .char("x")], "cancel the selected operation", group: .engine,
    footer: "cancel")
  static let bindings = [detail, cancel]
}

/// The main board. Its queue keys act on the selected queue (the highlighted row of Queues), its
/// operation keys on the selected operation.
struct MainView: ViewComponent {
  static let id = BoardView.board
  static let title = "On the board"
  static let opener: KeyBinding? = nil
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("select the operation")
    + [
      KeyBinding(
        .nextQueue, [.key(.tab)], "select the next queue", group: .select, footer: "queue"),
      KeyBinding(.previousQueue, [.key(.backTab)], "select the previous queue", group: .select),
      KeyBinding(
        .clickSelect, [.click], "select the operation or queue under the pointer", group: .select),
      KeyBinding(
        .suspendResume, [.char("s")], "suspend or resume the selected queue", group: .engine,
        footer: "suspend"),
      KeyBinding(
        .raiseLimit, [.char("+"), .char("=")], "raise the selected queue's limit by one",
        group: .engine, footer: "limit"),
      KeyBinding(
        .lowerLimit, [.char("-"), .char("_")],
        "lower it by one, to 0 at least (from ∞: to the number running)",
        group: .engine, footer: "limit"),
      KeyBinding(
        .unlimited, [.char("*")], "no limit again (∞, Foundation's default)", group: .engine),
      KeyBinding(
        .cancelAll, [.char("C")],
        "cancel all of the selected queue (cancelAll; asks y/n)", group: .engine),
    ] + OperationKeys.bindings
    + [
      KeyBinding(
        .filter, [.char("/")], "filter operations by name, queue or state (Esc clears)",
        group: .views, footer: "filter"),
      KeyBinding(
        .sort, [.char("o")],
        "sort by: add order, name, state, queue, time in state, next to start",
        group: .views, footer: "sort"),
      KeyBinding(.reverseSort, [.char("O")], "reverse the sort", group: .views),
      KeyBinding(
        .hideFinished, [.char("h")], "hide or show finished operations", group: .views,
        footer: "hide done"),
      KeyBinding(
        .queueFilter, [.char("f")], "only the selected queue's operations (again: all)",
        group: .views),
      KeyBinding(
        .stateFilter, [.char("F")], "only waiting, running, finished or cancelled ones",
        group: .views),
      KeyBinding(
        .expandGroup, [.char("e")], "fold or unfold the selected group's children",
        group: .views),
    ]
  static let footer: [BoardAction] = [
    .up, .down, .pauseResume, .step, .nextQueue, .suspendResume, .raiseLimit, .lowerLimit,
    .cancelOperation, .sort, .hideFinished, .slower, .faster, .eventBack, .eventForward,
  ]

  var operationsScroll = 0
  var queuesScroll = 0
  /// The layout of the last frame, so a click lands on what was drawn.
  var layout: BoardLayout?
  /// Rows at the bottom of the main column that a box is drawn over (a moment's caption, a quiz
  /// question): the log may go under them, the why lines and the table may not.
  var bottomCover = 0

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    let model = context.model
    let page = max(1, (layout?.operationRows.height ?? 10) - 1)
    if let delta = SelectionMoves.delta(action, input: input, page: page) {
      context.status = context.shared.moveSelection(by: delta, in: model)
      return true
    }
    switch action {
    case .nextQueue: cycleQueue(1, &context)
    case .previousQueue: cycleQueue(-1, &context)
    case .clickSelect:
      if case .mouseClick(let x, let y) = input { click(x: x, y: y, &context) }
    case .filter: context.request = .editFilter
    case .sort, .reverseSort:
      var list = context.shared.operations
      let sort = action == .sort ? list.sort.next : list.sort
      // Longest in its state first: what is stuck comes to the top.
      let descending = action == .sort ? sort == .timeInState : !list.descending
      list.setSort(sort, descending: descending)
      context.shared.operations = list
      context.status = StatusMessage(
        "sorted by \(sort.rawValue)\(descending ? ", reversed" : ""): o sorts by the next key, O reverses"
      )
    case .hideFinished:
      let hide = !context.shared.operations.hideFinished
      context.shared.operations.setHideFinished(hide)
      context.status = StatusMessage(
        hide ? "finished operations hidden: h shows them again" : "finished operations shown")
    case .queueFilter:
      let current = context.shared.operations.queueFilter
      let queue =
        model.queues.indices.contains(context.shared.selectedQueue)
        ? model.queues[context.shared.selectedQueue].name : nil
      let next = current == nil ? queue : nil
      context.shared.operations.setQueueFilter(next)
      context.status = StatusMessage(
        next.map { "only \($0)'s operations: f again shows every queue" }
          ?? "every queue's operations")
    case .stateFilter:
      let next = StateFilter.after(context.shared.operations.stateFilter)
      context.shared.operations.setStateFilter(next)
      context.status = StatusMessage(
        next.map { "only \($0.rawValue) operations: F shows the next kind" }
          ?? "operations in every state")
    case .expandGroup:
      guard let op = context.shared.selectedRow(in: model), op.kind == .group else {
        context.status = StatusMessage("e collapses a group: select a group first", .rejected)
        return true
      }
      context.shared.operations.toggleCollapsed(op.name)
      let collapsed = context.shared.operations.collapsed.contains(op.name)
      context.status = StatusMessage(
        "\(op.name)'s children \(collapsed ? "hidden: e shows them" : "shown")")
    default:
      return false
    }
    return true
  }

  private func cycleQueue(_ delta: Int, _ context: inout ViewContext) {
    let queues = context.model.queues
    guard !queues.isEmpty else {
      context.status = StatusMessage("no queues yet", .rejected)
      return
    }
    let n = queues.count
    context.shared.selectedQueue = ((context.shared.selectedQueue + delta) % n + n) % n
    context.status = StatusMessage(
      "queue \(queues[context.shared.selectedQueue].name) selected: s, +, -, *, C act on it")
  }

  private func click(x: Int, y: Int, _ context: inout ViewContext) {
    guard let l = layout else { return }
    let model = context.model
    if l.operationRows.contains(x: x, y: y) {
      let position = operationsScroll + (y - l.operationRows.y)
      context.shared.operations.update(model)
      if position < context.shared.operations.count(model) {
        context.shared.selected =
          model.operations[context.shared.operations.modelIndex(at: position)].name
      }
    } else if let q = l.queueRows, q.contains(x: x, y: y) {
      let index = queuesScroll + (y - q.y)
      if index < model.queues.count { context.shared.selectedQueue = index }
    }
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    let width = renderer.width
    let mainWidth = BoardLayout.mainWidth(screenWidth: width)
    let why = ExplanationPane.lines(
      shared, in: renderer.model, width: mainWidth, missedEvents: renderer.info.missedEvents)
    var l = BoardLayout(
      width: width, height: renderer.height, queueCount: renderer.model.queues.count,
      explanationRows: why.count)
    let covered = r.maxY - bottomCover
    if bottomCover > 0, l.explanation.maxY > covered {
      // The box reaches above the log: the board above it, without the log, if the table keeps a
      // few rows and the why lines all of theirs.
      var above = BoardLayout(
        width: width, height: covered + 2, queueCount: renderer.model.queues.count,
        explanationRows: why.count, log: false)
      if above.operations.height >= 5, above.explanation.height >= l.explanation.height {
        above.side = l.side
        l = above
      }
    }
    layout = l
    if let q = l.queues {
      var queues = QueuesPane(selectedQueue: shared.selectedQueue, scroll: queuesScroll)
      queues.render(q, &renderer)
      queuesScroll = queues.scroll
    }
    var operations = OperationsPane(selection: shared, scroll: operationsScroll)
    operations.render(l.operations, &renderer)
    operationsScroll = operations.scroll
    ExplanationPane(lines: why).render(l.explanation, &renderer)
    if let log = l.log { LogPane().render(log, &renderer) }
    if let side = l.side {
      for y in side.y..<side.maxY { renderer.canvas.set("│", x: side.x - 1, y: y, style: .rule) }
      SidePane(selection: shared).render(side, &renderer)
    }
  }
}
