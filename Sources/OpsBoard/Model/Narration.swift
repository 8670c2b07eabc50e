import OpsEngine
import OpsEvents

/// The last transition told as a sentence with its cause, for a room that is not reading the log:
/// `resize is ready: its dependency download finished`.
public enum Narration {
  /// The newest state change the model knows (finishing → finished bookkeeping is skipped), told.
  public static func latest(in model: BoardModel) -> String? {
    for entry in model.newestTellingLog(12).reversed() {
      if let s = sentence(for: entry, in: model) { return s }
    }
    return nil
  }

  /// `resize is ready: its dependency download finished`: the engine's cause, in its one wording.
  public static func sentence(for entry: LogEntry, in model: BoardModel) -> String? {
    guard case .state(let o, _, let to, let cause) = entry.event.kind else { return nil }
    return "\(o) is \(phrase(to)): \(cause.text)"
  }

  private static func phrase(_ s: OperationState) -> String {
    switch s {
    case .initialized: "initialized"
    case .pending: "pending"
    case .evaluatingConditions: "evaluating its conditions"
    case .ready: "ready"
    case .executing: "executing"
    case .finishing: "finishing"
    case .finished: "finished"
    }
  }
}
