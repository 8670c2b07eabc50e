/// Where each pane of the board goes for a screen size. Panes are kept by priority: header, footer,
/// status and operations always; queues and log shrink first; the side column (dependencies, state
/// machine, selected operation) appears only when the screen is wide enough.
struct BoardLayout: Equatable {
  /// Below this the board shows only a message saying how large it needs to be. 60×16 keeps the
  /// header, three queues, three operation rows, the explanation, two log lines, the status line and the footer.
  static let minimumWidth = 60
  static let minimumHeight = 16
  /// From this width a side column shows the selected operation's dependencies and state machine.
  static let sideColumnWidth = 110

  var header: Rect
  var queues: Rect?
  var operations: Rect
  var explanation: Rect
  var side: Rect?
  var log: Rect?
  var status: Rect
  var footer: Rect

  static func fits(width: Int, height: Int) -> Bool {
    width >= minimumWidth && height >= minimumHeight
  }

  init(width: Int, height: Int, queueCount: Int) {
    header = Rect(x: 0, y: 0, width: width, height: 1)
    footer = Rect(x: 0, y: height - 1, width: width, height: 1)
    status = Rect(x: 0, y: height - 2, width: width, height: 1)
    let bodyTop = 1
    let bodyHeight = height - 3
    var mainWidth = width
    if width >= Self.sideColumnWidth {
      let sideWidth = min(72, max(40, width * 35 / 100))
      mainWidth = width - sideWidth - 1
      side = Rect(x: mainWidth + 1, y: bodyTop, width: sideWidth, height: bodyHeight)
    }
    // Queues: a title and up to a few rows; more queues scroll with Tab.
    let queueCap = bodyHeight >= 34 ? 8 : bodyHeight >= 24 ? 5 : 3
    let queueRows = max(1, min(queueCount, queueCap))
    // Log: the newest few events.
    let logRows =
      bodyHeight >= 50 ? 12 : bodyHeight >= 34 ? 8 : bodyHeight >= 20 ? 4 : bodyHeight >= 15 ? 3 : 2
    var y = bodyTop
    queues = Rect(x: 0, y: y, width: mainWidth, height: 1 + queueRows)
    y += 1 + queueRows
    var opsHeight = bodyTop + bodyHeight - y - (1 + logRows)
    if opsHeight >= 6 {
      log = Rect(x: 0, y: bodyTop + bodyHeight - 1 - logRows, width: mainWidth, height: 1 + logRows)
    } else {
      opsHeight = bodyTop + bodyHeight - y
    }
    // The last row under the table says why the selected operation is waiting.
    operations = Rect(x: 0, y: y, width: mainWidth, height: opsHeight - 1)
    explanation = Rect(x: 0, y: y + opsHeight - 1, width: mainWidth, height: 1)
  }

  /// Rows of the operations table that hold operations (after its title and column header).
  var operationRows: Rect { operations.rows(from: 2, count: operations.height - 2) }
  var queueRows: Rect? { queues.map { $0.rows(from: 1, count: $0.height - 1) } }
}
