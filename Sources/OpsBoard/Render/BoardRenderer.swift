import OpsEngine
import OpsEvents

/// What one frame cost: tests use it to check that work follows what is visible, not scenario size.
struct RenderStats: Equatable {
  var operationRowsDrawn = 0
  var queueRowsDrawn = 0
  var logLinesDrawn = 0
  var graphNodesDrawn = 0
  var filterScanned = 0
}

/// A frame being drawn: the canvas, the context it is drawn from, and what drawing it cost. The
/// board composes its panes here by layout: header, the shown view's body, status and footer.
struct BoardRenderer {
  let context: RenderContext
  var canvas: Canvas
  var stats = RenderStats()

  init(context: RenderContext, width: Int, height: Int) {
    self.context = context
    canvas = Canvas(width: width, height: height, ascii: context.ascii)
  }

  var model: BoardModel { context.model }
  var info: PlaybackInfo { context.info }
  var notes: String { context.notes }
  var fullLog: ArraySlice<LogEntry> { context.fullLog }
  var workSettings: [String: String] { context.workSettings }
  var keyMap: KeyMap { context.keyMap }
  var ascii: Bool { context.ascii }
  var lastKey: KeyEffect? { context.lastKey }
  var viewBeneath: BoardView? { context.viewBeneath }
  var width: Int { canvas.width }
  var height: Int { canvas.height }

  /// Draws the frame. Views adjust their scroll positions in `ui` to keep the selection visible.
  /// The context's `lastKey` and `viewBeneath` are the caller's, from `ui`.
  mutating func render(_ ui: inout BoardUIState) -> CellGrid {
    guard BoardLayout.fits(width: width, height: height) else {
      TooSmallPane(waiting: ui.waitingKey).render(
        Rect(x: 0, y: 0, width: width, height: height), &self)
      return canvas.grid
    }
    ui.waitingKey = nil
    ui.shared.clampSelection(model)
    stats.filterScanned = ui.shared.operations.lastScanned
    HeaderPane().render(Rect(x: 0, y: 0, width: width, height: 1), &self)
    let body = Rect(x: 0, y: 1, width: width, height: height - 3)
    ui.views.draw(ui.view, body, &self, &ui.shared)
    if let problem = ui.loadError { LoadErrorPane(problem: problem).render(body, &self) }
    StatusPane(ui).render(Rect(x: 0, y: height - 2, width: width, height: 1), &self)
    FooterPane(ui, quizReveal: QuizView.revealFooter(ui, keyMap: keyMap, ascii: ascii))
      .render(Rect(x: 0, y: height - 1, width: width, height: 1), &self)
    if ui.helpVisible {
      var help = HelpPane(overlay: ui.help, view: ui.view)
      help.render(Rect(x: 0, y: 0, width: width, height: height), &self)
      ui.help = help.overlay
    }
    return canvas.grid
  }
}
