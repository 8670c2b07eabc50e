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
      let lines = renderer.momentCaptionLines(self, width: width - 4)
      let facts = renderer.momentFactLines(self, width: width - 4, compact: true)
      let height =
        min(lines.count + facts.count, max(1, r.height - PresenterView.minimumTableRows - 6)) + 2
      let gap = presenter.draw(r, &renderer, &shared, leaving: height)
      renderer.drawMomentCaption(
        self, lines, facts, in: Rect(x: gap.x, y: gap.y, width: width, height: gap.height))
    } else {
      // Over the log; a caption taller than the log pushes the why lines up, not under it.
      let width = min(BoardLayout.mainWidth(screenWidth: r.width), 100)
      let lines = renderer.momentCaptionLines(self, width: width - 4)
      let facts = renderer.momentFactLines(self, width: width - 4, compact: false)
      let height = min(lines.count + facts.count, max(1, r.height - 6)) + 2
      board.bottomCover = height
      board.draw(r, &renderer, &shared)
      renderer.drawMomentCaption(
        self, lines, facts, in: Rect(x: r.x, y: r.maxY - height, width: width, height: height))
    }
  }
}

extension BoardRenderer {
  /// The caption wrapped to `width`, in full (code spans without their backticks).
  func momentCaptionLines(_ moment: MomentView, width: Int) -> [String] {
    TextWrap.wrap(TextWrap.reflow(moment.caption).replacingBackticks(), width: width)
  }

  /// The claims with whether each holds in this run (a key pressed at the moment may undo one):
  /// one a line, or `compact`, one line counting those that hold and each failing one on its own. The style says whether every claim of the line holds.
  func momentFactLines(_ moment: MomentView, width: Int, compact: Bool) -> [(
    text: String, holds: Bool
  )] {
    let yes = ascii ? "+" : "✓"
    let no = ascii ? "x" : "✗"
    let facts = moment.claims.map { claim -> (String, String?) in
      (claim.text, claim.failure(in: model.projection, run: moment.timeline))
    }
    var lines: [(text: String, holds: Bool)] = []
    if compact {
      // The caption says the facts in words; one line says the engine agrees with each.
      let holding = facts.filter { $0.1 == nil }.count
      if holding > 0 {
        let text =
          holding == 1 && facts.count == 1
          ? "\(yes) \(facts[0].0)"
          : "\(yes) \(holding) of its \(facts.count) claims hold in this run"
        lines += TextWrap.wrap(text, width: width).map { ($0, true) }
      }
    }
    for (text, failure) in facts where !compact || failure != nil {
      let line = failure.map { "\(no) \(text) — not in this run: \($0)" } ?? "\(yes) \(text)"
      lines.append((line, failure == nil))
    }
    return lines
  }

  /// The caption's box: its title, the key that continues, as many lines as the box holds, the
  /// caption first and then its claims.
  mutating func drawMomentCaption(
    _ moment: MomentView, _ lines: [String], _ facts: [(text: String, holds: Bool)],
    in box: Rect
  ) {
    let spans = TextWrap.codeSpans(TextWrap.reflow(moment.caption))
    let title =
      "Moment \(moment.index + 1) of \(moment.count) · \(clockText(moment.time))s"
    canvas.box(box, title: title, style: .title)
    let key = keyMap.keyLabel(.nextMoment, in: .moment, ascii: ascii) ?? "m"
    canvas.putRight(" \(key) continues ", maxX: box.maxX - 2, y: box.y, style: .title)
    let room = max(0, box.height - 2)
    for (i, line) in lines.prefix(room).enumerated() {
      drawMarkedLine(line, spans: spans, x: box.x + 2, y: box.y + 1 + i, width: box.width - 4)
    }
    for (i, fact) in facts.prefix(max(0, room - lines.count)).enumerated() {
      canvas.put(
        fact.text, x: box.x + 2, y: box.y + 1 + lines.count + i, width: box.width - 4,
        style: fact.holds ? .good : .bad)
    }
  }
}
