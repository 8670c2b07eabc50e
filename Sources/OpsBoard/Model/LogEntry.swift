import OpsEngine

/// Why a transition happened, derived from the events before it. Kept as data (not text) so folding a
/// million events formats nothing; the text is made only for the lines on screen.
public enum LogCause: Sendable, Equatable {
  case added(queue: String)
  /// The last unfinished dependency finished (`of` is how many dependencies there are).
  case dependencyFinished(String, of: Int)
  case noDependencies
  case queueResumed(String)
  /// Cancelling a waiting operation makes it ready at once (Foundation), so its queue can finish it.
  case cancelled
  case conditionsSatisfied
  case conditionFailed(String)
  case slotFreed(by: String)
  case limitRaised(queue: String, to: Int?)
  case freeSlot(queue: String, executing: Int, limit: Int?)
  case lockAcquired(category: String)
  case workDone
  case workFailed(String)
  case cancelledWhileExecuting(CancelCause)
  /// Cancelled, the work ran to its end anyway: it never checked isCancelled.
  case ranDespiteCancel
  case skipsMain
  case childrenFinished

  public var text: String {
    switch self {
    case .added(let q): "added to \(q)"
    case .dependencyFinished(let d, let n):
      n == 1 ? "\(d) finished" : "\(d) finished (the last of \(n) dependencies)"
    case .noDependencies: "no dependencies to wait for"
    case .queueResumed(let q): "\(q) resumed"
    case .cancelled: "cancelled, so ready at once: its queue must still start it to finish it"
    case .conditionsSatisfied: "all conditions satisfied"
    case .conditionFailed(let c): "condition \(c) failed, so it is cancelled"
    case .slotFreed(let d): "\(d) finished, freeing a slot"
    case .limitRaised(let q, let v): "\(q) limit raised to \(v.map(String.init) ?? "∞")"
    case .freeSlot(let q, let n, let limit):
      "\(q) had a free slot (\(n)/\(limit.map(String.init) ?? "∞") executing)"
    case .lockAcquired(let c): "got the \(c) exclusivity lock"
    case .workDone: "work done"
    case .workFailed(let e): "work failed: \(e)"
    case .cancelledWhileExecuting(let c):
      c == .timeout
        ? "timed out: the work noticed and stopped"
        : "cancelled: the work noticed and stopped early"
    case .ranDespiteCancel: "work ran to its end although cancelled: it never checked isCancelled"
    case .skipsMain:
      "cancelled before it started: its queue starts it, it skips main() and finishes"
    case .childrenFinished: "all its children finished"
    }
  }
}

/// One line of the event log: the event and, for a transition, its cause.
public struct LogEntry: Sendable, Equatable {
  public let event: Event
  public let cause: LogCause?

  public var seq: Int { event.seq }
  public var time: Double { event.time }
  public var isCommand: Bool { if case .command = event.kind { true } else { false } }
  /// The operation or queue it is about (empty for commands, whose line names their target).
  public var subject: String { isCommand ? "" : event.kind.subject }

  /// Observer calls and the instant finishing → finished step: true to the engine, but they repeat what
  /// the transition before them said, so the small log pane leaves them out.
  public var isBookkeeping: Bool {
    switch event.kind {
    case .didStart, .willFinish, .didFinish, .state(_, .finishing, .finished): true
    default: false
    }
  }

  /// What happened, in plain words, without time or subject.
  public var message: String {
    switch event.kind {
    case .state(_, let from, let to):
      return "\(from.rawValue) → \(to.rawValue)" + (cause.map { ": " + $0.text } ?? "")
    case .command(let c, let target, let value, let source):
      let mark =
        switch source {
        case .key: "⌨"
        case .action: "»"
        case .api: "◆"
        }
      let origin = source == .action ? " (scenario action)" : ""
      return "\(mark) \(c) \(target)" + (value.map { " \($0)" } ?? "") + origin
    default:
      return event.kind.summary
    }
  }

  /// `3.40  resize  pending → evaluatingConditions: download finished`, or `3.10  ⌨ suspend network`.
  public var line: String {
    let subject = subject
    return clockText(time) + "  " + (subject.isEmpty ? "" : subject + "  ") + message
  }
}

/// Virtual seconds with two decimals ("3.40"), computed in integers so output never varies.
public func clockText(_ seconds: Double) -> String {
  let centis = Int64((seconds * 100).rounded())
  let sign = centis < 0 ? "-" : ""
  let c = abs(centis)
  let frac = c % 100
  return sign + String(c / 100) + "." + (frac < 10 ? "0" : "") + String(frac)
}

/// A short duration for narrow columns: `0.25s`, `12.5s`, `340s`, `58m`.
public func durationText(_ seconds: Double) -> String {
  let s = max(0, seconds)
  if s < 9.995 { return clockText(s) + "s" }
  let tenths = Int64((s * 10).rounded())
  if tenths < 1000 { return String(tenths / 10) + "." + String(tenths % 10) + "s" }
  let whole = Int64(s.rounded())
  if whole < 10_000 { return String(whole) + "s" }
  return String(whole / 60) + "m"
}
