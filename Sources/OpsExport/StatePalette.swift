import OpsEngine
import OpsEvents

/// What a node or row shows for an operation: its state, or for a finished one how it ended. One
/// palette for dot, Mermaid and the SVG timeline, so a handout's pictures agree.
enum Outcome: String, CaseIterable, Sendable {
  case initialized, pending, evaluatingConditions, ready, executing, finishing
  case finished, failed, cancelled

  init(_ op: OperationInfo) {
    switch op.state {
    case .finished:
      self = op.cancelled ? .cancelled : op.errors.isEmpty ? .finished : .failed
    case .initialized: self = .initialized
    case .pending: self = .pending
    case .evaluatingConditions: self = .evaluatingConditions
    case .ready: self = .ready
    case .executing: self = .executing
    case .finishing: self = .finishing
    }
  }

  init(_ state: OperationState) {
    self = Outcome(rawValue: state.rawValue) ?? .initialized
  }

  var label: String {
    switch self {
    case .evaluatingConditions: "evaluating conditions"
    case .finished: "finished"
    case .failed: "finished with errors"
    case .cancelled: "finished, cancelled"
    default: rawValue
    }
  }

  var fill: String {
    switch self {
    case .initialized: "#e0e0e0"
    case .pending: "#cfd8dc"
    case .evaluatingConditions: "#ffe082"
    case .ready: "#90caf9"
    case .executing: "#66bb6a"
    case .finishing: "#26a69a"
    case .finished: "#c8e6c9"
    case .failed: "#ffab91"
    case .cancelled: "#ef9a9a"
    }
  }

  var stroke: String {
    switch self {
    case .initialized, .pending: "#78909c"
    case .evaluatingConditions: "#ff8f00"
    case .ready: "#1565c0"
    case .executing, .finished: "#2e7d32"
    case .finishing: "#00695c"
    case .failed: "#d84315"
    case .cancelled: "#c62828"
    }
  }
}

enum Palette {
  /// The mark of a cancelled flag on an unfinished operation, and of the moment it was set.
  static let cancel = "#c62828"
  static let dependency = "#455a64"
  static let produced = "#6a1b9a"
  static let child = "#00838f"
  static let condition = "#ef6c00"
  /// A mutual-exclusivity category and the lines to the operations that share it.
  static let exclusive = "#ad1457"
  static let exclusiveFill = "#fce4ec"
  /// The warning mark of the SVG timeline: an amber triangle with a dark edge.
  static let warningFill = "#ffca28"
  static let warningStroke = "#e65100"
}
