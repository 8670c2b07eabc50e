/// The bottom row: the line being typed, or the keys that work now (the y/n answers, help's own
/// keys, the shown view's from the key map, or time travel's while the past is shown), the pinned ones at
/// the right.
struct FooterPane: Pane {
  var input: TextInput?
  var confirming = false
  var helpVisible = false
  var view = BoardView.board
  /// The quiz's reveal keys, when a reveal is on screen (they replace the view's).
  var quizReveal: [FooterItem]?

  init(
    input: TextInput? = nil, confirming: Bool = false, helpVisible: Bool = false,
    view: BoardView = .board, quizReveal: [FooterItem]? = nil
  ) {
    self.input = input
    self.confirming = confirming
    self.helpVisible = helpVisible
    self.view = view
    self.quizReveal = quizReveal
  }

  init(_ ui: BoardUIState, quizReveal: [FooterItem]?) {
    self.init(
      input: ui.input, confirming: ui.confirmation != nil, helpVisible: ui.helpVisible,
      view: ui.view, quizReveal: quizReveal)
  }

  func render(_ r: Rect, _ frame: inout BoardRenderer) {
    if let input {
      let text = " / " + input.text
      let n = frame.canvas.put(text, x: r.x, y: r.y, width: r.width, style: .bold)
      frame.canvas.set("▏", x: r.x + n, y: r.y, style: .bold)
      let what = input.purpose == .filter ? "the filter" : "the search"
      frame.canvas.putRight(
        "Enter keeps \(what) · Esc clears it ", maxX: r.maxX, y: r.y, style: .dim)
      return
    }
    var items: [FooterItem]
    if confirming {
      items = [
        FooterItem(keys: "y", label: "yes", actions: [], pinned: false),
        FooterItem(keys: "n", label: "(or any other key) no", actions: [], pinned: false),
      ]
    } else if helpVisible {
      let up = KeyPattern.key(.up).label(ascii: frame.ascii)
      let down = KeyPattern.key(.down).label(ascii: frame.ascii)
      items = [
        FooterItem(
          keys: frame.ascii ? "\(up)/\(down)" : up + down, label: "scroll", actions: [],
          pinned: false),
        FooterItem(keys: "PgUp/PgDn", label: "page", actions: [], pinned: false),
        FooterItem(keys: "?/Esc", label: "close", actions: [.help], pinned: false),
      ]
    } else {
      items = frame.keyMap.footerItems(for: view, beneath: frame.viewBeneath, ascii: frame.ascii)
        .map { item in
          // Space says what it will do now.
          guard item.actions == [.pauseResume], frame.info.paused || frame.info.finished else {
            return item
          }
          return FooterItem(
            keys: item.keys, label: "play", actions: item.actions, pinned: item.pinned)
        }
      if frame.info.showingPast != nil { items = replayFooter(frame) + items.filter(\.pinned) }
      if let reveal = quizReveal { items = reveal + items.filter(\.pinned) }
      if frame.info.live {
        // A running program: the keys that belong to a scenario are not offered.
        items.removeAll { item in
          !item.actions.isEmpty
            && item.actions.allSatisfy { BoardSession.notForALiveProgram($0) != nil }
        }
      }
    }
    let pinned = items.filter(\.pinned)
    let pinnedWidth = pinned.reduce(0) { $0 + $1.text.count + 2 }
    var x = r.x + 1
    func draw(_ item: FooterItem, _ canvas: inout Canvas, _ x: inout Int) {
      x += canvas.put(item.keys, x: x, y: r.y, style: Style(fg: .cyan, attrs: .bold))
      x += canvas.put(" " + item.label, x: x, y: r.y)
      x += 2
    }
    for item in items where !item.pinned {
      let w = (frame.ascii ? Canvas.transliterate(item.text).count : item.text.count) + 2
      if x + w > r.maxX - pinnedWidth { break }
      draw(item, &frame.canvas, &x)
    }
    x = max(x, r.maxX - pinnedWidth)
    for item in pinned { draw(item, &frame.canvas, &x) }
  }

  /// While the past is shown, the footer is about travelling and where Space resumes from (read from the key
  /// map, so it names the keys that really do it).
  func replayFooter(_ frame: BoardRenderer) -> [FooterItem] {
    func keys(_ actions: [BoardAction]) -> String {
      actions.compactMap { frame.keyMap.keyLabel($0, ascii: frame.ascii) }.joined()
    }
    let from = frame.info.resumeFrom == .here ? "here" : "present"
    return [
      FooterItem(
        keys: keys([.eventBack, .eventForward]), label: "event",
        actions: [.eventBack, .eventForward], pinned: false),
      FooterItem(
        keys: keys([.secondBack, .secondForward]), label: "second",
        actions: [.secondBack, .secondForward], pinned: false),
      FooterItem(
        keys: keys([.pauseResume]), label: "resume", actions: [.pauseResume], pinned: false),
      FooterItem(
        keys: keys([.resumePoint]), label: "from: \(from)", actions: [.resumePoint],
        pinned: false),
    ]
  }
}
