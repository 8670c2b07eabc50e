import OpsEngine
import OpsEvents

extension BoardView {
  /// Quiz mode's question (or its reveal) over the board; the clock is held until it is answered.
  public static let quiz = BoardView("quiz")
}

extension BoardAction {
  /// Turns quiz mode on or off: predict before each step and at each moment.
  public static let toggleQuiz = BoardAction("toggleQuiz")
  /// Answers with the selected choice (or the number typed); after the reveal, closes it.
  static let answerQuiz = BoardAction("answerQuiz")
  /// Puts the question away unanswered, or closes the reveal.
  static let closeQuiz = BoardAction("closeQuiz")
}

/// Quiz mode's question: the board (or the presenter layout) underneath, the question and its
/// choices in a box at the bottom; after the answer, the engine's answer, its cause and what changed.
struct QuizView: ViewComponent {
  static let id = BoardView.quiz
  static let title = "Quiz: predict, then reveal"
  static let opener: KeyBinding? = nil
  static let bindings: [KeyBinding] = [
    KeyBinding(
      .up, [.key(.up), .char("k")], "choose the answer up or down", group: .select,
      footer: "choose"),
    KeyBinding(
      .down, [.key(.down), .char("j")], "choose the answer down", group: .select,
      footer: "choose"),
    KeyBinding(
      .answerQuiz, [.key(.enter)],
      "answer with the chosen one; after the reveal, close it", group: .select,
      footer: "answer"),
    KeyBinding(
      .answerQuiz, [.char("1"), .char("2"), .char("3"), .char("4")], "answer with that choice",
      group: .select),
    KeyBinding(
      .closeQuiz, [.key(.escape)], "put the question away unanswered, or close the reveal",
      group: .views, footer: "back"),
  ]
  /// While asking: `.` waits for the answer, so it is not offered (the reveal has its own footer).
  static let footer: [BoardAction] = [.up, .down, .answerQuiz, .closeQuiz]

  enum Phase: Equatable {
    case asking
    /// Answered with this choice; the board has moved on to the answer.
    case revealed(picked: Int)
  }

  var question: QuizQuestion?
  var phase = Phase.asking
  var selection = 0
  /// The log lines the reveal showed (what changed).
  var changes: [String] = []
  /// Where the board goes when the question or reveal closes.
  var returnView = BoardView.board
  /// Asked in the presenter layout (or at a moment over it): drawn over the presenter.
  var overPresenter = false
  var score = QuizScore()
  var board = MainView()
  var presenter = PresenterView()

  init() {}

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    guard phase == .asking, let q = question else { return false }
    switch action {
    case .up: selection = (selection + q.choices.count - 1) % q.choices.count
    case .down: selection = (selection + 1) % q.choices.count
    default: return false
    }
    return true
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    guard let question else { return board.draw(r, &renderer, &shared) }
    let lines = QuizPane.lines(self, question, in: r, ascii: renderer.ascii)
    let box = QuizPane.box(lines: lines.count, in: r)
    if overPresenter {
      // Over the presenter: its table is short and the state machine is the point, so the box covers
      // the bottom of it.
      presenter.draw(r, &renderer, &shared)
      // The box is at most 100 wide: blank the rest of its rows, or the presenter's lines under it
      // would show through as fragments beside it.
      renderer.canvas.fill(Rect(x: r.x, y: box.y, width: r.width, height: box.height))
    } else {
      // The board above the box where it fits, so the selected operation (what the reveal is about)
      // and why it waits stay in view.
      board.bottomCover = box.height
      board.draw(r, &renderer, &shared)
    }
    QuizPane(phase: phase, score: score, lines: lines).render(box, &renderer)
  }
}

extension QuizView {
  /// After the answer the choice keys do nothing: the footer says what Enter, Esc and `.` do then
  /// (read from the key map). Nil while asking, or when no reveal is on screen.
  static func revealFooter(_ ui: BoardUIState, keyMap: KeyMap, ascii: Bool) -> [FooterItem]? {
    let view = ui.views.quiz
    guard ui.view == .quiz, view.phase != .asking else { return nil }
    let close = [
      keyMap.keyLabel(.answerQuiz, in: .quiz, ascii: ascii),
      keyMap.keyLabel(.closeQuiz, in: .quiz, ascii: ascii),
    ].compactMap { $0 }
    var items = [
      FooterItem(
        keys: close.joined(separator: "/"), label: "close", actions: [.answerQuiz, .closeQuiz],
        pinned: false)
    ]
    if let step = keyMap.keyLabel(.step, in: .quiz, ascii: ascii) {
      items.append(FooterItem(keys: step, label: "next question", actions: [.step], pinned: false))
    }
    return items
  }
}
