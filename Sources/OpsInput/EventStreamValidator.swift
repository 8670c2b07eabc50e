import OpsEngine
import OpsEvents

/// The one check of an event stream that comes from outside (a recording, standard input, a probe's
/// stream) before anything folds it: every event must be one the engine could have sent after the
/// ones before it. Sequence numbers run 1, 2, 3… without a gap; times are seconds from 0 to the end
/// of the clock and never go back; a queue or an operation is added once and named only after; an
/// operation's state moves from the state it is in, one step along the lifecycle; names and texts
/// follow `TextPolicy`; numbers are in range. The folds (`Projection`, the board, the exports) then
/// trust what they are given: a repeated transition would have made a queue's count negative.
///
/// O(1) per event (a lookup of its names), and it keeps one entry per queue and operation.
public struct EventStreamValidator: Sendable {
  /// Events accepted so far (the next must have seq `count + 1`).
  public private(set) var count = 0
  /// The time of the last event accepted.
  public private(set) var lastTime = 0.0
  private var queues = Set<String>()
  private var states: [String: OperationState] = [:]

  /// Events before this point were let go or dropped by the sender (a probe that keeps only what
  /// its viewers have not taken): see `resume(at:)`.
  public private(set) var missedSome = false

  public init() {}

  /// What to do with an event of a stream that may have missed some (`judge`).
  public enum Verdict: Sendable, Equatable {
    case accept
    /// About an operation or queue added before the gap, or a step that does not follow from the
    /// one last seen of it: the folds would count it wrongly, so it is left out (and counted).
    case skip
    case refuse(String)
  }

  /// The sender let go of or dropped the events before `seq`: the story goes on from there.
  public mutating func resume(at seq: Int) {
    guard seq > count + 1 else { return }
    count = seq - 1
    missedSome = true
  }

  /// The sender summarised events this stream did not get (a snapshot caught up with, numbered
  /// into the seqs it missed): what they would explain is skipped from now on, as after a gap.
  public mutating func missedEvents() { missedSome = true }

  /// `check`, for a stream that may have missed events: once it has, an event the missing ones
  /// would explain (about an operation or queue never seen, or a step from a state it is not seen
  /// in) is skipped rather than refused. Times, texts and numbers are judged as ever.
  public mutating func judge(_ event: borrowing Event) -> Verdict {
    let seq = event.seq
    let time = event.time
    guard let problem = problem(event) else { return .accept }
    guard missedSome, problem.reason.isExplainedByAGap, seq == count + 1, time.isFinite,
      time >= lastTime, time <= Self.maxSeconds
    else { return .refuse(problem.message) }
    count += 1
    lastTime = time
    return .skip
  }

  /// The latest time an event may have: the end of the engine's clock.
  public static let maxSeconds = VirtualRuntime.maxSeconds

  /// The lifecycle's steps, as the engine takes them: a cancelled operation that never started goes
  /// from ready straight to finishing.
  public static func isStep(from: OperationState, to: OperationState) -> Bool {
    switch (from, to) {
    case (.initialized, .pending), (.pending, .evaluatingConditions), (.pending, .ready),
      (.evaluatingConditions, .ready), (.ready, .executing), (.ready, .finishing),
      (.executing, .finishing), (.finishing, .finished):
      true
    default: false
    }
  }

  /// Why `event` cannot come next, for a message that names its line or position; nil when it can
  /// (it is then taken into account for the next).
  public mutating func check(_ event: borrowing Event) -> String? { problem(event)?.message }

  /// `check`, with the kind of problem.
  public mutating func problem(_ event: borrowing Event) -> StreamProblem? {
    if event.seq != count + 1 {
      return StreamProblem(
        .sequence,
        event.seq <= count
          ? "event \(event.seq) again (or out of order) where event \(count + 1) was due"
          : "event \(event.seq) where event \(count + 1) was due: \(event.seq - count - 1 == 1 ? "an event is" : "events are") missing"
      )
    }
    let t = event.time
    guard t.isFinite, t >= 0 else {
      return StreamProblem(.time, "its time \(shown(t)) is not a number of seconds >= 0")
    }
    guard t <= Self.maxSeconds else {
      return StreamProblem(
        .time, "its time \(shown(t)) s is past the end of the clock (\(shown(Self.maxSeconds)) s)")
    }
    guard t >= lastTime else {
      return StreamProblem(
        .time,
        "its time \(shown(t)) s is before the previous event's \(shown(lastTime)) s: "
          + "times never go back")
    }
    if let why = checkKind(event.kind) { return why }
    count += 1
    lastTime = t
    return nil
  }

  /// The operations added so far (their names are known).
  public var operationCount: Int { states.count }

  // MARK: - Kinds

  private mutating func checkKind(_ kind: EventKind) -> StreamProblem? {
    switch kind {
    case .queueAdded(let q, let limit, _, _):
      if let why = name(q, "a queue name") { return why }
      if let why = limitProblem(limit) { return why }
      guard queues.insert(q).inserted else {
        return StreamProblem(.addedTwice, "queue '\(q)' is added a second time")
      }
    case .queueSuspended(let q), .queueResumed(let q):
      return knownQueue(q)
    case .queueMaxConcurrent(let q, let limit):
      return knownQueue(q) ?? limitProblem(limit)
    case .operationAdded(let o, let q, _, _, _, let deps, let conds, let excl, let work):
      if let why = name(o, "an operation name") ?? knownQueue(q) ?? names(deps, "a dependency")
        ?? names(conds, "a condition name") ?? names(excl, "an exclusivity category")
      {
        return why
      }
      if let work, !(work.isFinite && work >= 0 && work <= Self.maxSeconds) {
        return StreamProblem(
          .number, "'\(o)' has work of \(shown(work)) s: expected 0 to \(shown(Self.maxSeconds))")
      }
      guard states[o] == nil else {
        return StreamProblem(.addedTwice, "operation '\(o)' is added a second time")
      }
      states[o] = .initialized
    case .dependencyAdded(let o, let d):
      // An operation made but not yet added to a queue (the live runtime's API) may be given a
      // dependency, or cancelled, before its `operationAdded`: named, not necessarily known.
      return name(o, "an operation name") ?? name(d, "a dependency")
    case .state(let o, let from, let to, let cause):
      guard let current = states[o] else { return unknown(o) }
      guard from == current else {
        return StreamProblem(
          .wrongState,
          "'\(o)' moves from \(from.rawValue) to \(to.rawValue), but it is \(current.rawValue)")
      }
      guard Self.isStep(from: from, to: to) else {
        return StreamProblem(
          .notAStep,
          "'\(o)' cannot move from \(from.rawValue) to \(to.rawValue): "
            + "that is not a step of the lifecycle")
      }
      if let why = causeProblem(cause) { return why }
      states[o] = to
    case .conditionWaiting(let o, let c, let d):
      return knownOperation(o) ?? name(c, "a condition name") ?? name(d, "an operation name")
    case .conditionStarted(let o, let c):
      return knownOperation(o) ?? name(c, "a condition name")
    case .conditionResult(let o, let c, _, let error):
      return knownOperation(o) ?? name(c, "a condition name")
        ?? error.flatMap { line($0, "an error") }
    case .exclusivityWaiting(let o, let category, let holder):
      return knownOperation(o) ?? name(category, "an exclusivity category")
        ?? name(holder, "an operation name")
    case .exclusivityAcquired(let o, let category), .exclusivityReleased(let o, let category):
      return knownOperation(o) ?? name(category, "an exclusivity category")
    case .cancelled(let o, let errors, _):
      return name(o, "an operation name") ?? lines(errors, "an error")
    case .cancelTooLate(let o), .didStart(let o), .completion(let o):
      return knownOperation(o)
    case .didProduce(let o, let produced):
      return knownOperation(o) ?? name(produced, "an operation name")
    case .willFinish(let o, let errors, _), .didFinish(let o, let errors, _):
      return knownOperation(o) ?? lines(errors, "an error")
    case .cycleDetected(let ops):
      return names(ops, "an operation name")
    case .command(let command, let target, let value, _):
      return name(command, "a command") ?? name(target, "a command's target")
        ?? value.flatMap { line($0, "a command's value") }
    case .warning(let kind, let subject, let message):
      return name(kind, "a warning kind") ?? name(subject, "a warning's subject")
        ?? line(message, "a warning")
    case .refused(let o, let reason):
      return name(o, "a name") ?? line(reason, "a reason")
    }
    return nil
  }

  private func causeProblem(_ cause: StateCause) -> StreamProblem? {
    switch cause {
    case .added(let q), .queueResumed(let q):
      return name(q, "a queue name")
    case .dependencyFinished(let d, let n):
      return name(d, "a dependency")
        ?? (n >= 1 && n <= Int(Int32.max)
          ? nil : StreamProblem(.number, "a cause counts \(n) dependencies"))
    case .conditionFailed(let c): return name(c, "a condition name")
    case .lockAcquired(let c): return name(c, "an exclusivity category")
    case .started(let q, let slot, let limit, let after):
      if let why = name(q, "a queue name") ?? limitProblem(limit) { return why }
      // A start takes a slot among the operations running: no more than have been added.
      // After a gap the operations added among the missed events are not counted: only the
      // number's own range is checked then.
      guard slot >= 1, slot <= Int(Int32.max), missedSome || slot <= max(1, states.count) else {
        return StreamProblem(
          .number, "a start in slot \(slot) with \(states.count) operations added")
      }
      switch after {
      case .slotFreed(let by)?: return name(by, "an operation name")
      case .limitRaised(let to)?: return limitProblem(to)
      case .resumed?, nil: return nil
      }
    case .workThrew(let e): return line(e, "an error")
    case .noticedCancel(_, let at):
      return at.isFinite && at >= 0 && at <= Self.maxSeconds
        ? nil : StreamProblem(.number, "a cancel noticed at \(shown(at)) s")
    case .childrenFinished(let n):
      return n >= 0 && n <= Int(Int32.max)
        ? nil : StreamProblem(.number, "a cause counts \(n) children")
    // No name, text or number to check.
    case .noDependencies, .conditionsSatisfied, .cancelled, .skippedMain, .workReturned,
      .finishedAtOnce, .ranDespiteCancel, .observersNotified, .sampled:
      return nil
    }
  }

  // MARK: - Pieces

  private func knownQueue(_ q: String) -> StreamProblem? {
    queues.contains(q)
      ? nil
      : StreamProblem(
        .neverAdded, "queue '\(TextPolicy.escaped(q, keepNewlines: false))' was never added")
  }

  private func knownOperation(_ o: String) -> StreamProblem? {
    states[o] == nil ? unknown(o) : nil
  }

  private func unknown(_ o: String) -> StreamProblem {
    StreamProblem(
      .neverAdded, "operation '\(TextPolicy.escaped(o, keepNewlines: false))' was never added")
  }

  private func name(_ text: String, _ what: String) -> StreamProblem? {
    TextPolicy.nameProblem(text).map {
      StreamProblem(
        .text,
        $0.description(what: what)
          + (text.utf8.count > 80 ? "" : " ('\(TextPolicy.quotedName(text))')"))
    }
  }

  private func names(_ list: [String], _ what: String) -> StreamProblem? {
    for text in list { if let why = name(text, what) { return why } }
    return nil
  }

  private func line(_ text: String, _ what: String) -> StreamProblem? {
    TextPolicy.lineProblem(text).map { StreamProblem(.text, $0.description(what: what)) }
  }

  private func lines(_ list: [String], _ what: String) -> StreamProblem? {
    for text in list { if let why = line(text, what) { return why } }
    return nil
  }

  private func limitProblem(_ limit: Int?) -> StreamProblem? {
    guard let limit, limit < 0 else { return nil }
    return StreamProblem(
      .number, "a concurrency limit of \(limit): expected 0 or more (or null for none)")
  }

  /// Seconds in a message, as typed more or less.
  private func shown(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }
}

/// Why an event cannot come next: the kind, which `judge` decides by, and the message for people.
public struct StreamProblem: Sendable, Equatable, CustomStringConvertible {
  public enum Reason: Sendable, Equatable {
    /// Its seq is not the next one.
    case sequence
    /// Not a number of seconds, past the clock's end, or before the previous event.
    case time
    /// A name or text the policy refuses.
    case text
    /// A count, limit, slot or duration out of range.
    case number
    /// About a queue or operation the stream never added.
    case neverAdded
    /// A queue or operation added twice.
    case addedTwice
    /// A transition from a state the operation is not in.
    case wrongState
    /// A transition that is not a step of the lifecycle.
    case notAStep

    /// Events a sender let go of or dropped would explain it: the operation was added, or moved
    /// on, among them.
    public var isExplainedByAGap: Bool { self == .neverAdded || self == .wrongState }
  }

  public let reason: Reason
  public let message: String

  public init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  public var description: String { message }
}
