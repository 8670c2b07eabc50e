import OpsEngine

extension BoardView {
  /// The board with a teaching moment's caption over its lower part; the clock is held there.
  public static let moment = BoardView("moment")
}

/// A teaching moment on screen: the board as it is at that moment, with the caption in a box over
/// the log. Continuing (m, or Space here) closes it and plays on; Esc closes it and stays paused.
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
  static let footer: [BoardAction] = [.nextMoment, .step, .back, .eventBack, .eventForward]

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
    false
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    if overPresenter {
      presenter.draw(r, &renderer, &shared)
    } else {
      board.draw(r, &renderer, &shared)
    }
    renderer.drawMomentCaption(self, in: r)
  }
}

extension BoardRenderer {
  /// The caption in a box at the bottom of `r`, as wide as the main column allows.
  mutating func drawMomentCaption(_ moment: MomentView, in r: Rect) {
    // Over the main column only: the side column (state machine) stays visible.
    let boxWidth = min(BoardLayout.mainWidth(screenWidth: r.width), 100)
    let textWidth = boxWidth - 4
    let text = TextWrap.reflow(moment.caption)
    let lines = TextWrap.wrap(text.replacingBackticks(), width: textWidth)
    let spans = TextWrap.codeSpans(text)
    // Each claim with whether it holds in this run: a key pressed at the moment may undo one.
    let facts = moment.claims.map { claim -> (String, Bool) in
      let failure = claim.failure(in: model.projection, run: moment.timeline)
      let mark = failure == nil ? (ascii ? "+" : "✓") : (ascii ? "x" : "✗")
      return (
        "\(mark) \(claim.text)" + (failure.map { " — not in this run: \($0)" } ?? ""),
        failure == nil
      )
    }
    let room = max(1, r.height / 2 - 2)
    let shown = min(lines.count, room)
    let factsShown = min(facts.count, max(0, room - shown))
    let height = shown + factsShown + 2
    let box = Rect(x: r.x, y: r.maxY - height, width: boxWidth, height: height)
    let title =
      "Moment \(moment.index + 1) of \(moment.count) · \(clockText(moment.time))s"
    canvas.box(box, title: title, style: .title)
    let key = keyMap.keyLabel(.nextMoment, in: .moment, ascii: ascii) ?? "m"
    canvas.putRight(" \(key) continues ", maxX: box.maxX - 2, y: box.y, style: .title)
    for (i, line) in lines.prefix(shown).enumerated() {
      drawMarkedLine(line, spans: spans, x: box.x + 2, y: box.y + 1 + i, width: textWidth)
    }
    for (i, fact) in facts.prefix(factsShown).enumerated() {
      canvas.put(
        fact.0, x: box.x + 2, y: box.y + 1 + shown + i, width: textWidth,
        style: fact.1 ? .good : .bad)
    }
  }
}
