/// Why an operation changed state, as the engine knew it at that moment. Every `state` event carries
/// one; the board's log, the narration and the text trace all render it with `text`, so a learner reads
/// the same sentence everywhere and nobody guesses causes from timings.
public enum StateCause: Sendable, Equatable, Hashable {
  /// initialized → pending.
  case added(queue: String)
  /// Nothing to wait for: no dependencies (or all finished before it was added).
  case noDependencies
  /// Its last unfinished dependency finished (`of`: how many dependencies it has).
  case dependencyFinished(String, of: Int)
  /// Its conditions waited for its suspended queue, which was resumed.
  case queueResumed(String)
  /// evaluatingConditions → ready: its conditions passed and any exclusivity lock was free.
  case conditionsSatisfied
  /// A condition failed: the first failure decides, the operation is cancelled with its error.
  case conditionFailed(String)
  /// Cancelled while waiting: Foundation makes it ready at once so its queue can finish it.
  case cancelled(CancelCause)
  /// evaluatingConditions → ready: it holds the mutual-exclusivity lock it asked for once its other
  /// conditions (if any) passed, at once or after waiting in line (ProcedureKit's condition
  /// evaluation ends only when the lock is granted).
  case lockAcquired(category: String)
  /// ready → executing: its queue started it in slot `slot` of `limit` (nil: no limit); `after` is what
  /// made the room, when a slot was not simply free. Boxed: inline it made every cause, and so every
  /// `state` event and every visit of an operation's history, 57 bytes instead of 25.
  indirect case started(queue: String, slot: Int, limit: Int?, after: StartTrigger?)
  /// ready → finishing: cancelled before it started; its queue starts it, it skips main() and finishes.
  case skippedMain
  /// executing → finishing: the work returned.
  case workReturned
  /// The work threw (or an async operation finished with an error).
  case workThrew(String)
  /// Cooperative work saw `isCancelled` at its check at `at` seconds and stopped early.
  case noticedCancel(CancelCause, at: Double)
  /// Immediate cancellation (Operations 2.x style): finished at once without waiting for the work.
  case finishedAtOnce(CancelCause)
  /// Cancelled while executing, the work never checked and returned at its own end.
  case ranDespiteCancel
  /// A group: all of its children finished.
  case childrenFinished(Int)
  /// finishing → finished: willFinish observers have run.
  case observersNotified
  /// Any step a live probe found by reading the operation's flags at a sample (no KVO on Linux):
  /// the new state is known, its cause and a start's slot are not, so none is invented.
  case sampled

  /// What made room in a queue for a start.
  public enum StartTrigger: Sendable, Equatable, Hashable {
    case slotFreed(by: String)
    case limitRaised(to: Int?)
    case resumed
  }

  /// The one wording of this cause, for the log, narration and trace.
  public var text: String {
    switch self {
    case .added(let q): "added to \(q)"
    case .noDependencies: "no dependencies to wait for"
    case .dependencyFinished(let d, let n):
      n == 1 ? "its dependency \(d) finished" : "\(d) finished, the last of its \(n) dependencies"
    case .queueResumed(let q): "its queue \(q) was resumed"
    case .conditionsSatisfied: "all its conditions were satisfied"
    case .conditionFailed(let c): "condition \(c) failed, so it is cancelled"
    case .cancelled(let c):
      "cancelled (\(c.rawValue)), so ready at once: its queue must still start it to finish it"
    case .lockAcquired(let c): "got the \(c) exclusivity lock"
    case .started(let q, let slot, let limit, let after):
      "\(q) started it in slot \(slot) of \(OpsEvents.limitText(limit))"
        + (after.map { ": " + $0.text } ?? "")
    case .skippedMain:
      "cancelled before it started: its queue starts it, it skips main() and finishes"
    case .workReturned: "its work returned"
    case .workThrew(let e): "its work threw: \(e)"
    case .noticedCancel(let c, let t):
      c == .timeout
        ? "timed out: the work noticed at its check at \(formatSeconds(t))s and stopped"
        : "cancelled: the work noticed at its check at \(formatSeconds(t))s and stopped early"
    case .finishedAtOnce(let c):
      "cancelled (\(c.rawValue)) with immediate cancellation: finished at once, the work is abandoned"
    case .ranDespiteCancel:
      "its work ran to its end although cancelled: it never checked isCancelled"
    case .childrenFinished(let n):
      n == 0 ? "it has no children, so it finishes at once" : "all \(n) of its children finished"
    case .observersNotified: "willFinish observers notified"
    case .sampled: "seen by sampling"
    }
  }

  /// The cause's name in the JSON contract.
  public var kind: String { causeKind.name }

  /// The cause's kind: the switch the compiler checks when a cause is added.
  public var causeKind: CauseKind {
    switch self {
    case .added: .added
    case .noDependencies: .noDependencies
    case .dependencyFinished: .dependencyFinished
    case .queueResumed: .queueResumed
    case .conditionsSatisfied: .conditionsSatisfied
    case .conditionFailed: .conditionFailed
    case .cancelled: .cancelled
    case .lockAcquired: .lockAcquired
    case .started: .started
    case .skippedMain: .skippedMain
    case .workReturned: .workReturned
    case .workThrew: .workThrew
    case .noticedCancel: .noticedCancel
    case .finishedAtOnce: .finishedAtOnce
    case .ranDespiteCancel: .ranDespiteCancel
    case .childrenFinished: .childrenFinished
    case .observersNotified: .observersNotified
    case .sampled: .sampled
    }
  }
}

extension StateCause.StartTrigger {
  public var text: String {
    switch self {
    case .slotFreed(let o): "\(o) finished and freed a slot"
    case .limitRaised(let v): "its limit was raised to \(OpsEvents.limitText(v))"
    case .resumed: "the queue was resumed"
    }
  }
}

/// Every kind of `StateCause`, one case per cause (docs/EVENTS.md). The case name is the JSON `kind`.
public enum CauseKind: Int, ContractName {
  case added
  case noDependencies
  case dependencyFinished
  case queueResumed
  case conditionsSatisfied
  case conditionFailed
  case cancelled
  case lockAcquired
  case started
  case skippedMain
  case workReturned
  case workThrew
  case noticedCancel
  case finishedAtOnce
  case ranDespiteCancel
  case childrenFinished
  case observersNotified
  case sampled

  public static let contractNames = ContractNames<Self>()
}
