import OpsEngine
import OpsEvents

/// What the views share: the selected operation and queue, and the operations list (filter, sort,
/// hide finished). The selection is kept by name, so it survives time travel, sorting and filters:
/// at a moment before the operation was added it is simply not on screen, and it is again later.
struct SharedState {
  /// The selected operation's name (nil until there is one).
  var selected: String?
  var selectedQueue = 0
  var operations = OperationList()
  /// First visible position of the operations table, and of the queues.
  var operationsScroll = 0
  var queuesScroll = 0

  /// The selected operation's model index, if it exists at the moment shown.
  func selectedIndex(in model: BoardModel) -> Int? {
    selected.flatMap { model.index(ofOperation: $0) }
  }

  /// The selected operation, if it exists at the moment shown and the list shows it.
  func selectedRow(in model: BoardModel) -> OperationInfo? {
    guard let i = selectedIndex(in: model), operations.position(of: i).exact else { return nil }
    return model.operations[i]
  }

  /// Keeps the selection on a listed operation: the first one when nothing is selected yet, the next
  /// one when a filter hides it. An operation that does not exist yet (time travel) stays selected.
  mutating func clampSelection(_ model: BoardModel) {
    operations.update(model)
    selectedQueue = min(max(0, selectedQueue), max(0, model.queues.count - 1))
    let count = operations.count(model)
    guard count > 0 else { return }
    guard let name = selected else {
      selected = model.operations[operations.modelIndex(at: 0)].name
      return
    }
    guard let i = model.index(ofOperation: name) else { return }
    let (position, exact) = operations.position(of: i)
    if !exact {
      selected = model.operations[operations.modelIndex(at: min(position, count - 1))].name
    }
  }

  /// Moves the selection by `delta` rows (clamped). From an operation not on screen it starts at the
  /// top. Returns why nothing moved, if nothing can.
  mutating func moveSelection(by delta: Int, in model: BoardModel) -> StatusMessage? {
    operations.update(model)
    let count = operations.count(model)
    guard count > 0 else {
      return StatusMessage(
        operations.isFiltered ? "nothing matches the filter: Esc clears it" : "no operations yet")
    }
    var target: Int
    if let i = selectedIndex(in: model), case (let p, true) = operations.position(of: i) {
      target = p.addingClamped(delta)
    } else {
      target = delta > 0 ? delta - 1 : 0
    }
    target = min(max(0, target), count - 1)
    selected = model.operations[operations.modelIndex(at: target)].name
    return nil
  }
}

extension Int {
  func addingClamped(_ other: Int) -> Int {
    let (r, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? Int.max : Int.min) : r
  }
}

/// A scrolled window over `count` rows that keeps one row in view: the one scrolling rule of every
/// list and document on the board.
enum ScrollWindow {
  /// The first visible row so that `focus` (if any) is visible, never past the end.
  static func top(_ top: Int, keeping focus: Int?, visible: Int, count: Int) -> Int {
    var t = top
    if let f = focus {
      if f < t { t = f }
      if f >= t + visible { t = f - visible + 1 }
    }
    return max(0, min(t, count - visible))
  }
}

/// The move keys as steps of the operation selection (board, graph, timeline).
enum SelectionMoves {
  static func delta(_ action: BoardAction, input: KeyInput, page: Int) -> Int? {
    switch action {
    case .up: -1
    case .down: 1
    case .pageUp: -max(1, page)
    case .pageDown: max(1, page)
    case .first: Int.min / 2
    case .last: Int.max / 2
    case .wheel: input == .scrollUp ? -3 : 3
    default: nil
    }
  }
}
