import OpsEngine

/// The last transition told as a sentence with its cause, for a room that is not reading the log:
/// `resize is ready: its dependency download finished and it has no conditions`.
public enum Narration {
  /// The newest state change the model knows (finishing → finished bookkeeping is skipped), told.
  public static func latest(in model: BoardModel) -> String? {
    for entry in model.newestTellingLog(12).reversed() {
      if let s = sentence(for: entry, in: model) { return s }
    }
    return nil
  }

  public static func sentence(for entry: LogEntry, in model: BoardModel) -> String? {
    guard case .state(let o, _, let to) = entry.event.kind else { return nil }
    let op = model.operation(named: o)
    let now = "\(o) is \(phrase(to))"
    guard let cause = entry.cause else { return now }
    let noConditions = op?.conditions.isEmpty ?? true
    let because: String =
      switch cause {
      case .added(let q): "it was added to \(q)"
      case .dependencyFinished(let d, let n):
        (n == 1
          ? "its dependency \(d) finished" : "\(d) finished, the last of its \(n) dependencies")
          + (to == .ready && noConditions ? " and it has no conditions" : "")
      case .noDependencies:
        "it has no dependencies" + (to == .ready && noConditions ? " and no conditions" : "")
      case .queueResumed(let q): "its queue \(q) was resumed"
      case .cancelled: "it was cancelled, so it is ready at once: its queue must still start it"
      case .conditionsSatisfied: "all its conditions were satisfied"
      case .conditionFailed(let c): "its condition \(c) failed, so it was cancelled"
      case .slotFreed(let d): "\(d) finished and freed a slot in its queue"
      case .limitRaised(let q, let v): "\(q)'s limit was raised to \(Vocabulary.limit(v))"
      case .freeSlot(let q, let n, let limit):
        "\(q) had a free slot (now \(n)/\(Vocabulary.limit(limit)) executing)"
      case .lockAcquired(let c): "it got the \(c) exclusivity lock"
      case .workDone: "its work is done"
      case .workFailed(let e): "its work failed: \(e)"
      case .cancelledWhileExecuting(let c):
        c == .timeout
          ? "it timed out and its work noticed" : "it was cancelled and its work noticed"
      case .ranDespiteCancel:
        "its work ran to the end although cancelled: it never checked isCancelled"
      case .skipsMain: "it was cancelled before it started, so it skips main()"
      case .childrenFinished: "all its children finished"
      }
    return now + ": " + because
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
