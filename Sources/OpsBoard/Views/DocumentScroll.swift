/// The scroll position of a view that shows a document (details, notes, warnings, help): the move
/// keys scroll it by a line, a page, or to either end.
struct DocumentScroll {
  var top = 0
  /// Rows shown by the last frame, so a page is as tall as what is seen.
  var visible = 10

  /// Applies a move action; false for any other action.
  mutating func perform(_ action: BoardAction, input: KeyInput) -> Bool {
    let page = max(1, visible - 1)
    switch action {
    case .up: top -= 1
    case .down: top += 1
    case .pageUp: top -= page
    case .pageDown: top += page
    case .first: top = 0
    case .last: top = Int.max / 2
    case .wheel: top += input == .scrollUp ? -3 : 3
    default: return false
    }
    top = max(0, top)
    return true
  }

  /// Clamps to a document of `total` rows seen through `visible` rows (each frame).
  mutating func fit(total: Int, visible: Int) {
    self.visible = visible
    top = max(0, min(top, total - visible))
  }

  func hasMore(total: Int) -> Bool { top + visible < total }
}

/// A view that shows one scrolling document (details, notes, warnings): it opens at the top, and its
/// own keys scroll it; anything else goes to the session.
protocol DocumentView: ViewComponent {
  var scroll: DocumentScroll { get set }
}

extension DocumentView {
  mutating func opened(_ context: inout ViewContext) { scroll = DocumentScroll() }

  mutating func perform(_ action: BoardAction, input: KeyInput, _ context: inout ViewContext)
    -> Bool
  {
    scroll.perform(action, input: input)
  }
}
