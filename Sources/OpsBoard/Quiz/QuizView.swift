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
    let boxWidth = min(r.width, 100)
    let content = renderer.quizLines(self, question, width: boxWidth - 4)
    // The question and every choice, or the verdict and its explanation, always in full (on a small
    // screen the box takes what it needs); what changed only as far as half the screen allows,
    // the newest changes whole.
    let most = max(1, r.height - 3)
    let essential = Array(content.essential.prefix(most))
    let room = max(3, r.height / 2) - 2 - essential.count - 1
    var changes: [[(String, Style)]] = []
    var used = 0
    for change in content.changes.reversed() where used + change.count <= room {
      changes.insert(change, at: 0)
      used += change.count
    }
    let lines =
      essential + (changes.isEmpty ? [] : [("What changed:", Style.title)] + changes.flatMap { $0 })
    let boxHeight = lines.count + 2
    if overPresenter {
      // Over the presenter: its table is short and the state machine is the point, so the box covers
      // the bottom of it.
      presenter.draw(r, &renderer, &shared)
    } else {
      // The board above the box where it fits, so the selected operation (what the reveal is about)
      // and why it waits stay in view.
      board.bottomCover = boxHeight
      board.draw(r, &renderer, &shared)
    }
    renderer.drawQuiz(self, lines, in: r)
  }
}

extension BoardRenderer {
  /// The box's lines, wrapped to `textWidth`: the question and its choices, or the verdict and the
  /// explanation (`essential`, never cut); after the reveal also each change the answer made.
  func quizLines(_ view: QuizView, _ q: QuizQuestion, width textWidth: Int)
    -> (essential: [(String, Style)], changes: [[(String, Style)]])
  {
    var lines: [(String, Style)] = []
    var changes: [[(String, Style)]] = []
    let check = ascii ? "+" : "✓"
    let cross = ascii ? "x" : "✗"
    /// Wrapped, the lines after the first under its text (`indent` columns in); as it is (its
    /// spacing kept) when it fits.
    func wrapped(_ text: String, indent: Int, _ style: Style) -> [(String, Style)] {
      if text.count <= textWidth { return [(text, style)] }
      let pad = String(repeating: " ", count: indent)
      return TextWrap.wrap(text, width: max(10, textWidth - indent)).enumerated().map {
        ($0.offset == 0 ? $0.element : pad + $0.element, style)
      }
    }
    switch view.phase {
    case .asking:
      lines += TextWrap.wrap(q.prompt, width: textWidth).map { ($0, Style.bold) }
      for (i, choice) in q.choices.enumerated() {
        let mark = i == view.selection ? (ascii ? ">" : "▸") : " "
        let style = i == view.selection ? Style(attrs: .reverse) : .plain
        lines += wrapped("\(mark) \(i + 1)  \(choice)", indent: 5, style)
      }
    case .revealed(let picked):
      let right = q.isRight(picked)
      // Every choice the engine made true is named, so a right answer is never marked wrong.
      let truths = q.accepted.map { q.choices[$0] }.joined(separator: " and ")
      let verdict =
        right
        ? "\(check) Right: \(q.choices[picked])"
          + (q.accepted.count > 1 ? " (\(truths) started at the same instant)" : "")
        : "\(cross) You said \(q.choices[picked]); the engine: \(truths)"
      lines += wrapped(verdict, indent: 2, right ? .good : .bad)
      lines += TextWrap.wrap(q.explanation, width: textWidth).map { ($0, Style.plain) }
      changes = view.changes.suffix(3).map { wrapped($0, indent: 2, .dim) }
    }
    return (lines, changes)
  }

  /// After the answer the choice keys do nothing: the footer says what Enter, Esc and `.` do then
  /// (read from the key map). Nil while asking, or when no reveal is on screen.
  func quizRevealFooter(_ ui: BoardUIState) -> [FooterItem]? {
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

  /// The box at the bottom of `r`.
  mutating func drawQuiz(_ view: QuizView, _ shown: [(String, Style)], in r: Rect) {
    let boxWidth = min(r.width, 100)
    let textWidth = boxWidth - 4
    let box = Rect(x: r.x, y: r.maxY - shown.count - 2, width: boxWidth, height: shown.count + 2)
    let score = "score \(view.score.right)/\(view.score.asked)"
    let title = view.phase == .asking ? "Predict · \(score)" : "Revealed · \(score)"
    canvas.box(box, title: title, style: .title)
    let hint = view.phase == .asking ? " Enter answers " : " Enter closes "
    canvas.putRight(hint, maxX: box.maxX - 2, y: box.y, style: .title)
    for (i, (text, style)) in shown.enumerated() {
      canvas.put(text, x: box.x + 2, y: box.y + 1 + i, width: textWidth, style: style)
    }
  }
}
