/// Where each pane of the board goes for a screen size. Panes are kept by priority: header, footer,
/// status, operations and the why lines always; queues and log shrink first; the side column
/// (dependencies, state machine, selected operation) appears only when the screen is wide enough.
struct BoardLayout: Equatable {
  /// Below this the board shows only a message saying how large it needs to be. 60×16 keeps the
  /// header, three queues, three operation rows, the explanation, two log lines, the status line and the footer.
  static let minimumWidth = 60
  static let minimumHeight = 16
  /// From this width a side column shows the selected operation's dependencies and state machine.
  static let sideColumnWidth = 110
  /// The why lines wrap onto at most this many rows.
  static let maximumExplanationRows = 4

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

  /// The width the main column (queues, operations, why, log) gets on a screen this wide.
  static func mainWidth(screenWidth width: Int) -> Int {
    width >= sideColumnWidth ? width - sideWidth(width) - 1 : width
  }

  private static func sideWidth(_ width: Int) -> Int { min(72, max(40, width * 35 / 100)) }

  /// `explanationRows`: how many rows the why text needs (wrapped to `mainWidth`); the operations
  /// table gives them up, down to three rows of its own, then the log goes.
  /// `log: false` leaves the log out (the body's bottom is covered by a moment's caption).
  init(
    width: Int, height: Int, queueCount: Int, explanationRows: Int = 1, log wantsLog: Bool = true
  ) {
    header = Rect(x: 0, y: 0, width: width, height: 1)
    footer = Rect(x: 0, y: height - 1, width: width, height: 1)
    status = Rect(x: 0, y: height - 2, width: width, height: 1)
    let bodyTop = 1
    let bodyHeight = height - 3
    let mainWidth = Self.mainWidth(screenWidth: width)
    if mainWidth < width {
      side = Rect(
        x: mainWidth + 1, y: bodyTop, width: width - mainWidth - 1, height: bodyHeight)
    }
    // Queues: a title and up to a few rows; more queues scroll with Tab.
    let queueCap = bodyHeight >= 34 ? 8 : bodyHeight >= 24 ? 5 : 3
    let queueRows = max(1, min(queueCount, queueCap))
    // Log: the newest few events.
    let logRows =
      bodyHeight >= 50 ? 12 : bodyHeight >= 34 ? 8 : bodyHeight >= 20 ? 4 : bodyHeight >= 15 ? 3 : 2
    let y = bodyTop + 1 + queueRows
    queues = Rect(x: 0, y: bodyTop, width: mainWidth, height: 1 + queueRows)
    let whyRows = min(max(1, explanationRows), Self.maximumExplanationRows)
    // What is left for the table (title, header, rows) and the why lines.
    let rest = bodyTop + bodyHeight - y
    var whyHeight = whyRows
    var opsHeight = rest - whyHeight - (1 + logRows)
    if opsHeight >= 5, wantsLog {
      log = Rect(x: 0, y: bodyTop + bodyHeight - 1 - logRows, width: mainWidth, height: 1 + logRows)
    } else {
      // No log: the table and the why lines share the rest, the table keeping three rows.
      opsHeight = rest - whyHeight
      if opsHeight < 5 {
        whyHeight = max(1, rest - 5)
        opsHeight = rest - whyHeight
      }
    }
    operations = Rect(x: 0, y: y, width: mainWidth, height: opsHeight)
    explanation = Rect(x: 0, y: y + opsHeight, width: mainWidth, height: whyHeight)
  }

  /// Rows of the operations table that hold operations (after its title and column header).
  var operationRows: Rect { operations.rows(from: 2, count: operations.height - 2) }
  var queueRows: Rect? { queues.map { $0.rows(from: 1, count: $0.height - 1) } }
}
