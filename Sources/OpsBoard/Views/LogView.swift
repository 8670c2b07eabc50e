extension BoardView {
  public static let log = BoardView("log")
}

extension BoardAction {
  static let search = BoardAction("search")
  static let nextMatch = BoardAction("nextMatch")
  static let previousMatch = BoardAction("previousMatch")
}

/// The whole event log, newest at the bottom. It follows the newest events until scrolled; then the
/// first line shown stays put while events arrive (the count of newer ones grows), until End.
/// `/` searches it and `n`/`N` go to the next and previous match (here `n` is not the notes).
struct LogView: ViewComponent {
  static let id = BoardView.log
  static let title = "In the full log"
  static let opener: KeyBinding? = KeyBinding(
    BoardAction("open.log"), [.char("l")], "the full event log", group: .views, footer: "log")
  static let bindings: [KeyBinding] =
    MoveKeys.bindings("scroll", footer: "scroll")
    + [
      KeyBinding(
        .search, [.char("/")], "search the log (Enter keeps, Esc clears)", group: .views,
        footer: "search"),
      KeyBinding(
        .nextMatch, [.char("n")], "the next match, further down", group: .views,
        footer: "match"),
      KeyBinding(
        .previousMatch, [.char("N")], "the previous match, further up", group: .views,
        footer: "match"),
    ]
  static let footer: [BoardAction] = [
    .up, .down, .search, .nextMatch, .previousMatch, .pauseResume, .step, .back,
  ]

  /// First line shown (an index into the log); nil follows the newest.
  var top: Int?
  /// Rows of the last frame.
  var visible = 10
  var query = ""
  /// The log index of the current match.
  var match: Int?

  init() {}

  mutating func opened(_ context: inout ViewContext) {
    top = nil
    match = nil
  }

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    let total = context.log.count
    // The log's rows: the screen less the header, its title, the status and the footer.
    visible = max(1, context.screen.height - 4)
    let followingTop = max(0, total - visible)
    let page = max(1, visible - 1)
    func scroll(_ delta: Int) {
      let t = max(0, (top ?? followingTop) + delta)
      // Back at the newest: follow it again.
      top = t >= followingTop ? nil : t
    }
    switch action {
    case .up: scroll(-1)
    case .down: scroll(1)
    case .pageUp: scroll(-page)
    case .pageDown: scroll(page)
    case .wheel: scroll(input == .scrollUp ? -3 : 3)
    case .first: top = 0
    case .last: top = nil
    case .search: context.request = .editSearch
    case .nextMatch, .previousMatch:
      findMatch(forward: action == .nextMatch, &context)
    default: return false
    }
    return true
  }

  /// Sets the query from the search line and goes to its first match from the top shown.
  mutating func search(_ q: String, _ context: inout ViewContext) {
    query = q
    match = nil
    guard !q.isEmpty else { return }
    let start = (top ?? max(0, context.log.count - visible)) - 1
    match = start
    findMatch(forward: true, &context)
  }

  private mutating func findMatch(forward: Bool, _ context: inout ViewContext) {
    guard !query.isEmpty else {
      context.status = StatusMessage("no search yet: / searches the log", .rejected)
      return
    }
    let log = context.log
    let needle = query.lowercased()
    let base = log.startIndex
    let from = match ?? (forward ? -1 : log.count)
    let range =
      forward ? Array((from + 1)..<max(from + 1, log.count)) : Array((0..<max(0, from)).reversed())
    guard let hit = range.first(where: { log[base + $0].line.lowercased().contains(needle) }) else {
      context.status = StatusMessage(
        "no \(forward ? "later" : "earlier") line has \"\(query)\"", .rejected)
      return
    }
    match = hit
    // Show it a few lines from the top.
    let t = max(0, hit - 2)
    top = t >= max(0, log.count - visible) ? nil : t
    context.status = StatusMessage(
      "\"\(query)\" at event \(hit + 1) of \(log.count): n next, N previous")
  }

  mutating func draw(_ r: Rect, _ renderer: inout BoardRenderer, _ shared: inout SharedState) {
    var pane = FullLogPane(view: self)
    pane.render(r, &renderer)
    self = pane.view
  }
}
