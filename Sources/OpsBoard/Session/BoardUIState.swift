/// A message in the status line: what the last key did, or why it could not.
public struct StatusMessage: Sendable, Equatable {
  public enum Kind: Sendable, Equatable { case info, applied, rejected }
  public var text: String
  public var kind: Kind

  public init(_ text: String, _ kind: Kind = .info) {
    self.text = text
    self.kind = kind
  }
}

/// What the user is looking at: the view, selections, scroll positions, filter, status. Separate from
/// the model (which is only the engine's story) so time travel can swap the model under it.
struct BoardUIState {
  var view: BoardView = .board
  /// Where Esc goes from the detail view (the graph, when it was opened from there).
  var returnView: BoardView = .board
  var helpVisible = false
  var helpScroll = 0
  /// The selected operation, by model index (add order never changes, so it is stable).
  var selectedOperation = 0
  var selectedQueue = 0
  /// First visible position of the operations table (in the filtered list).
  var operationsScroll = 0
  var queuesScroll = 0
  /// Lines scrolled up from the newest in the full log (0 follows the newest).
  var logScroll = 0
  var notesScroll = 0
  var detailScroll = 0
  var filterEditing = false
  var operations = OperationList()
  var graphScrollX = 0
  var graphScrollY = 0
  /// The graph view's layout, rebuilt only when operations or edges are added.
  var graph: DAGLayout?
  var warningsScroll = 0
  /// Timeline zoom step: 0 fits the whole run; each step up halves the seconds per column.
  var timelineZoom = 0
  /// Timeline: first visible row.
  var timelineScroll = 0
  static let timelineZooms = -6...6
  var status: StatusMessage?
}

/// The header's facts that do not come from the model.
struct PlaybackInfo {
  var title: String
  var speed: Double
  var paused: Bool
  /// Events published by the engine but not yet shown (stepping reveals them one at a time).
  var unrevealed: Int
  /// The engine has nothing more scheduled and every event is shown.
  var finished: Bool
  /// Operations that have not finished (when `finished`, they never will).
  var unfinished: Int
  /// While time travelling: events shown of those revealed.
  var replaying: (shown: Int, of: Int)?
  var resumeFrom: ResumePoint = .present
}
