import OpsEngine
import OpsEvents

/// Quiz mode's box: the question and its choices, or the verdict, its explanation and what changed,
/// under a title with the score. It fills the rectangle it is given; `box` places that rectangle at
/// the bottom of the body, as tall as `lines` needs.
struct QuizPane: Pane {
  let phase: QuizView.Phase
  let score: QuizScore
  let lines: [(String, Style)]

  /// The lines shown in a body `r`: the question and every choice, or the verdict and its
  /// explanation, always in full (on a small screen the box takes what it needs); what changed only
  /// as far as half the screen allows, the newest changes whole.
  static func lines(_ view: QuizView, _ question: QuizQuestion, in r: Rect, ascii: Bool)
    -> [(String, Style)]
  {
    let boxWidth = min(r.width, 100)
    let parts = content(view, question, width: boxWidth - 4, ascii: ascii)
    let most = max(1, r.height - 3)
    let essential = Array(parts.essential.prefix(most))
    let room = max(3, r.height / 2) - 2 - essential.count - 1
    var changes: [[(String, Style)]] = []
    var used = 0
    for change in parts.changes.reversed() where used + change.count <= room {
      changes.insert(change, at: 0)
      used += change.count
    }
    // Say when older changes were left out, so the list is not taken for all of them.
    let total = view.changes.count
    let heading =
      changes.count < total
      ? "What changed (the last \(changes.count) of \(total)):" : "What changed:"
    return essential
      + (changes.isEmpty ? [] : [(heading, Style.title)] + changes.flatMap { $0 })
  }

  /// The box for `count` lines at the bottom of the body `r`, at most 100 wide.
  static func box(lines count: Int, in r: Rect) -> Rect {
    Rect(x: r.x, y: r.maxY - count - 2, width: min(r.width, 100), height: count + 2)
  }

  /// The box's lines, wrapped to `textWidth`: the question and its choices, or the verdict and the
  /// explanation (`essential`, never cut); after the reveal also each change the answer made.
  static func content(_ view: QuizView, _ q: QuizQuestion, width textWidth: Int, ascii: Bool)
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

  func render(_ box: Rect, _ frame: inout BoardRenderer) {
    let textWidth = box.width - 4
    let score = "score \(score.right)/\(score.asked)"
    let title = phase == .asking ? "Predict · \(score)" : "Revealed · \(score)"
    frame.canvas.box(box, title: title, style: .title)
    let hint = phase == .asking ? " Enter answers " : " Enter closes "
    frame.canvas.putRight(hint, maxX: box.maxX - 2, y: box.y, style: .title)
    for (i, (text, style)) in lines.enumerated() {
      frame.canvas.put(text, x: box.x + 2, y: box.y + 1 + i, width: textWidth, style: style)
    }
  }
}
