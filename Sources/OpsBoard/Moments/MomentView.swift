import OpsEngine
import OpsEvents

extension BoardView {
  /// The board with a teaching moment's caption over its lower part; the clock is held there.
  public static let moment = BoardView("moment")
}

/// A teaching moment on screen: the board as it is at that moment, with the caption in a box over
/// the log. Continuing (m, or Space here) closes it and plays on; Esc closes it and stays paused.
/// The keys of the view under the caption (the board's or the presenter's: selection, suspend, the
/// limit, cancel) act as they do there, and the caption stays; a view opened here (Enter, l, g)
/// returns here.
struct MomentView: ViewComponent {
  static let id = BoardView.moment
  static let title = "At a teaching moment"
  static let opener: KeyBinding? = nil
  static let bindings: [KeyBinding] = [
    KeyBinding(
      .continueMoment, [.char(" ")],
      "as m: close the caption and play on (Esc closes it and stays paused)", group: .clock),
    KeyBinding(
      .openDetail, [.key(.enter)], "details of the selected operation (Esc comes back here)",
      group: .views),
  ]
  /// The view underneath gives `↑↓` and `s` (they are dropped first when the footer is short).
  static let footer: [BoardAction] = [
    .nextMoment, .up, .down, .step, .back, .eventBack, .eventForward, .suspendResume,
  ]

  /// Index into the scenario's moments, and how many there are.
  var index = 0
  var count = 0
  var caption = ""
  /// The facts the caption states, each drawn with whether it holds on the board now.
  var claims: [MomentClaim] = []
  /// The run's transitions before and after the moment, as far as the board can know them.
  var timeline = MomentTimeline()
  /// The engine time it was reached at.
  var time = 0.0
  /// The board underneath keeps its own scroll positions while the caption is up.
  var board = MainView()
  /// Reached in the presenter layout: the caption goes over it, and continuing returns to it.
  var overPresenter = false
  var presenter = PresenterView()

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    // Its own keys are the session's; the rest belong to the view under the caption.
    if Self.bindings.contains(where: { $0.action == action }) { return false }
    return overPresenter
      ? presenter.perform(action, input: input, &context)
      : board.perform(action, input: input, &context)
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    if overPresenter {
      // Between the state machine and the last key's line: the effect of a key pressed here and
      // the why text stay in view under the caption.
      let width = min(r.width, 100)
      // On a projector the claims share lines, so the state machine keeps its room.
      let lines = MomentCaptionPane.lines(self, width: width - 4)
      let facts = MomentCaptionPane.facts(
        self, in: renderer.model, width: width - 4, compact: true, ascii: renderer.ascii)
      let height =
        min(lines.count + facts.count, max(1, r.height - PresenterView.minimumTableRows - 6)) + 2
      let gap = presenter.draw(r, &renderer, &shared, leaving: height)
      MomentCaptionPane(moment: self, lines: lines, facts: facts).render(
        Rect(x: gap.x, y: gap.y, width: width, height: gap.height), &renderer)
    } else {
      // Over the log; a caption taller than the log pushes the why lines up, not under it.
      let width = min(BoardLayout.mainWidth(screenWidth: r.width), 100)
      let lines = MomentCaptionPane.lines(self, width: width - 4)
      let facts = MomentCaptionPane.facts(
        self, in: renderer.model, width: width - 4, compact: false, ascii: renderer.ascii)
      let height = min(lines.count + facts.count, max(1, r.height - 6)) + 2
      board.bottomCover = height
      board.draw(r, &renderer, &shared)
      MomentCaptionPane(moment: self, lines: lines, facts: facts).render(
        Rect(x: r.x, y: r.maxY - height, width: width, height: height), &renderer)
    }
  }
}
