/// Plain-words descriptions of events, shared by `opsview trace --format text` and the board's log.
extension EventKind {
  /// Who the event is about: an operation, a queue, or the command's target.
  public var subject: String {
    switch self {
    case .cycleDetected(let ops): ops.first ?? ""
    case .command(_, let target, _, _): target
    case .warning(_, let subject, _): subject
    case .queueAdded, .queueSuspended, .queueResumed, .queueMaxConcurrent, .operationAdded,
      .dependencyAdded, .state, .conditionWaiting, .conditionStarted, .conditionResult,
      .exclusivityWaiting, .exclusivityAcquired, .exclusivityReleased, .cancelled, .cancelTooLate,
      .didStart, .didProduce, .willFinish, .didFinish, .completion, .refused:
      operation ?? queue ?? ""
    }
  }

  /// `summary`'s bytes, appended. A state change (nearly every line of a trace) is written here, its
  /// words in one place, without the string `summary` would build for it.
  public func appendSummary(to out: inout [UInt8]) {
    guard case .state(_, let from, let to, let cause) = self else {
      out.append(contentsOf: summary.utf8)
      return
    }
    out.append(contentsOf: from.rawValue.utf8)
    out.append(contentsOf: " → ".utf8)
    out.append(contentsOf: to.rawValue.utf8)
    out.append(contentsOf: ": ".utf8)
    out.append(contentsOf: cause.text.utf8)
  }

  /// What happened, in words, without the subject.
  public var summary: String {
    func errs(_ e: [String]) -> String {
      e.isEmpty ? "" : " (errors: \(e.joined(separator: "; ")))"
    }
    switch self {
    case .queueAdded(_, let max, let suspended, let qos):
      return "queue added: maxConcurrent \(max.map(String.init) ?? "default (unlimited)"), "
        + "\(suspended ? "suspended" : "running"), qos \(qos.rawValue)"
    case .queueSuspended: return "queue suspended: nothing new starts, running operations continue"
    case .queueResumed: return "queue resumed"
    case .queueMaxConcurrent(_, let v):
      return "maxConcurrent set to \(v.map(String.init) ?? "default (unlimited)")"
    case .operationAdded(_, let q, let p, let qos, let kind, let deps, let conds, let excl, _):
      var s = "added to \(q) (\(kind.rawValue), priority \(p.rawValue), qos \(qos.rawValue))"
      if !deps.isEmpty { s += ", depends on \(deps.joined(separator: ", "))" }
      if !conds.isEmpty { s += ", conditions \(conds.joined(separator: ", "))" }
      if !excl.isEmpty { s += ", mutually exclusive in \(excl.joined(separator: ", "))" }
      return s
    case .dependencyAdded(_, let d): return "now depends on \(d)"
    case .state:
      var bytes: [UInt8] = []
      appendSummary(to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    case .conditionStarted(_, let c): return "evaluating condition \(c)"
    case .conditionWaiting(_, let c, let d):
      return "condition \(c) waits for \(d), which it produced, before it is evaluated"
    case .refused(_, let reason): return "refused: \(reason)"
    case .conditionResult(_, let c, let r, let e):
      return "condition \(c) \(r.rawValue)" + (e.map { ": \($0)" } ?? "")
    case .exclusivityWaiting(_, let c, let h):
      return "waits for the \(c) exclusivity lock held by \(h)"
    case .exclusivityAcquired(_, let c): return "takes the \(c) exclusivity lock"
    case .exclusivityReleased(_, let c): return "releases the \(c) exclusivity lock"
    case .cancelled(_, let e, let cause): return "cancelled (\(cause.rawValue))" + errs(e)
    case .cancelTooLate: return "cancel arrived too late: already finished, nothing changes"
    case .didStart: return "didStart: execution begins"
    case .didProduce(_, let p): return "produced \(p)"
    case .willFinish(_, let e, let c): return "willFinish" + (c ? ", cancelled" : "") + errs(e)
    case .didFinish(_, let e, let c): return "didFinish" + (c ? ", cancelled" : "") + errs(e)
    case .completion: return "completion block ran"
    case .cycleDetected(let ops):
      return
        "dependency cycle \(cycleText(ops)): these can never start"
    case .command(let c, _, let v, let source):
      let mark =
        switch source {
        case .key: "⌨ key"
        case .action: "» scenario action"
        case .api: "◆ api"
        }
      return "\(mark): \(c)" + (v.map { " \($0)" } ?? "")
    case .warning(let kind, _, let message): return "⚠ \(kind): \(message)"
    }
  }
}
