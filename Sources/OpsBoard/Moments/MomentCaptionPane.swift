import OpsEngine
import OpsEvents

/// A moment's caption in its box: its title, the key that continues, as many lines as the box
/// holds, the caption first and then its claims.
struct MomentCaptionPane: Pane {
  var moment: MomentView
  /// The caption's lines (`lines`) and the claims' (`facts`), wrapped to the box's inner width.
  var lines: [String]
  var facts: [(text: String, holds: Bool)]

  /// The caption wrapped to `width`, in full (code spans without their backticks).
  static func lines(_ moment: MomentView, width: Int) -> [String] {
    TextWrap.wrap(TextWrap.reflow(moment.caption).replacingBackticks(), width: width)
  }

  /// The claims with whether each holds in this run (a key pressed at the moment may undo one):
  /// one a line, or `compact`, one line counting those that hold and each failing one on its own. The style says whether every claim of the line holds.
  static func facts(
    _ moment: MomentView, in model: BoardModel, width: Int, compact: Bool, ascii: Bool
  ) -> [(text: String, holds: Bool)] {
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
      // "No longer": a key changed the run, or showed the rest of the moment's instant first.
      let line = failure.map { "\(no) \(text) — no longer: \($0)" } ?? "\(yes) \(text)"
      lines.append((line, failure == nil))
    }
    return lines
  }

  func render(_ box: Rect, _ frame: inout BoardRenderer) {
    let spans = TextWrap.codeSpans(TextWrap.reflow(moment.caption))
    let title =
      "Moment \(moment.index + 1) of \(moment.count) · \(clockText(moment.time))s"
    frame.canvas.box(box, title: title, style: .title)
    let key = frame.keyMap.keyLabel(.nextMoment, in: .moment, ascii: frame.ascii) ?? "m"
    frame.canvas.putRight(" \(key) continues ", maxX: box.maxX - 2, y: box.y, style: .title)
    let room = max(0, box.height - 2)
    for (i, line) in lines.prefix(room).enumerated() {
      frame.canvas.drawMarkedLine(
        line, spans: spans, x: box.x + 2, y: box.y + 1 + i, width: box.width - 4)
    }
    for (i, fact) in facts.prefix(max(0, room - lines.count)).enumerated() {
      frame.canvas.put(
        fact.text, x: box.x + 2, y: box.y + 1 + lines.count + i, width: box.width - 4,
        style: fact.holds ? .good : .bad)
    }
  }
}
