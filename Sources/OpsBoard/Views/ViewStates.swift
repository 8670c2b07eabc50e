/// Each view's own state, one typed property per view, kept while the view is closed. The session
/// reads and changes a view through its property; code that holds only a `BoardView` id reaches the
/// view with `visit`, which hands a `ViewVisitor` the view in its own type.
struct ViewStates {
  var board = MainView()
  var detail = DetailView()
  var graph = GraphView()
  var timeline = TimelineView()
  var log = LogView()
  var warnings = WarningsView()
  var notes = NotesView()
  var moment = MomentView()
  var presenter = PresenterView()
  var quiz = QuizView()

  /// Hands the view named `id` to `visitor` (an unknown id is the board).
  /// Adding a view: its property above and its case here (a test checks every registered view).
  mutating func visit<Visitor: ViewVisitor>(_ id: BoardView, _ visitor: inout Visitor)
    -> Visitor.Result
  {
    switch id {
    case .detail: visitor.visit(&detail)
    case .graph: visitor.visit(&graph)
    case .timeline: visitor.visit(&timeline)
    case .log: visitor.visit(&log)
    case .warnings: visitor.visit(&warnings)
    case .notes: visitor.visit(&notes)
    case .moment: visitor.visit(&moment)
    case .presenter: visitor.visit(&presenter)
    case .quiz: visitor.visit(&quiz)
    default: visitor.visit(&board)
    }
  }

  /// Draws the view named `id` into `r`.
  mutating func draw(
    _ id: BoardView, _ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState
  ) {
    // The renderer moves into the visitor and back, so its canvas is never shared and copied.
    var drawing = Drawing(area: r, renderer: consume renderer, shared: consume shared)
    visit(id, &drawing)
    renderer = drawing.renderer
    shared = drawing.shared
  }

  /// Sends the view named `id` one of its own actions; false when it leaves it to the session.
  mutating func perform(
    _ id: BoardView, _ action: BoardAction, input: KeyInput, _ context: inout ViewContext
  ) -> Bool {
    var performing = Performing(action: action, input: input, context: consume context)
    let handled = visit(id, &performing)
    context = performing.context
    return handled
  }

  /// Tells the view named `id` that it is being opened.
  mutating func opened(_ id: BoardView, _ context: inout ViewContext) {
    var opening = Opening(context: consume context)
    visit(id, &opening)
    context = opening.context
  }
}

private struct Drawing: ViewVisitor {
  let area: Rect
  var renderer: BoardRenderer
  var shared: SharedState
  mutating func visit<View: ViewComponent>(_ view: inout View) {
    view.draw(area, &renderer, &shared)
  }
}

private struct Performing: ViewVisitor {
  let action: BoardAction
  let input: KeyInput
  var context: ViewContext
  mutating func visit<View: ViewComponent>(_ view: inout View) -> Bool {
    view.perform(action, input: input, &context)
  }
}

private struct Opening: ViewVisitor {
  var context: ViewContext
  mutating func visit<View: ViewComponent>(_ view: inout View) { view.opened(&context) }
}

/// Something done to a view, given the view in its own type.
protocol ViewVisitor {
  associatedtype Result
  mutating func visit<View: ViewComponent>(_ view: inout View) -> Result
}
