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
    let info = renderer.info
    updateLayout(
      for: renderer.model, playing: !info.paused && !info.finished && info.showingPast == nil)
    // The pane borrows the layout and only reads it, so the cache is shared, never copied.
    var pane = GraphPane(layout: layout!, selection: shared, scrollX: scrollX, scrollY: scrollY)
    pane.render(r, &renderer)
    (scrollX, scrollY) = (pane.scrollX, pane.scrollY)
  }
}
