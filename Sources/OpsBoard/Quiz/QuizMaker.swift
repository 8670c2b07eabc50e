import OpsEngine
import OpsEvents

/// Makes a question from what the board shows now and the events that will follow. Nothing here knows
/// any scenario: every question kind is found in the future events, and its answer is what they say.
struct QuizMaker {
  let model: BoardModel
  /// Every event shown so far.
  let shown: Int
  let future: [Event]
  /// Every operation's exclusivity categories, as they were added.
  let exclusivity: [String: [String]]
  /// The claims of the moment on screen: a question whose answer they state is not asked.
  var onScreen: [MomentClaim] = []
  /// How many future events may be shown by a reveal: it never passes the next moment.
  var horizon: Int = .max
  /// The question revealed last: its answer is on screen, so it is not asked again.
  var lastRevealed: QuizQuestion?

  /// At most this many choices, so they fit under the question at 80×24.
  static let maxChoices = 4
  static let noneOfThem = "none of them"

  /// The misconceptions first (a contested lock, how a cancel lands, work on a suspended queue, a
  /// cancelled operation's fate: the lessons people guess wrong, and they pass quickly); otherwise
  /// which operation starts next and the next state of one, taking turns with the number asked.
  func question(turn: Int) -> QuizQuestion? {
    let special =
      lockQuestions() + cancelledStopsQuestions() + suspendedQuestions()
      + cancelledQuestions()
    if let q = special.first(where: isFair) { return q }
    let common = [startQuestion(), stateQuestion()].compactMap { $0 }.filter(isFair)
    return common.isEmpty ? nil : common[turn % common.count]
  }

  /// Its reveal stays before the next moment, and neither the caption on screen nor the last
  /// reveal already says its answer.
  private func isFair(_ q: QuizQuestion) -> Bool {
    guard q.revealAt - shown <= horizon else { return false }
    if let last = lastRevealed, last.kind == q.kind,
      last.choices[last.answer] == q.choices[q.answer]
    {
      return false
    }
    let queueOf = { (o: String) in model.operation(named: o)?.queue }
    return !onScreen.contains { claim in
      switch (q.kind, claim) {
      // A queue the caption says is suspended or allows none: whether its ready one starts now,
      // or what its executing one does, is the caption's lesson.
      case (.readyStarts(let o), .queueLimit(let q, 0?)),
        (.readyStarts(let o), .queueSuspended(let q, true)),
        (.readyStarts(let o), .starts(let q?, _)),
        (.suspendedRuns(let o), .queueSuspended(let q, true)):
        queueOf(o) == q
      case (.readyStarts, .starts(nil, _)): true
      case (.nextStart, .starts): true
      case (.nextStart, .operationStartsAt(let o, _)): q.accepted.contains { q.choices[$0] == o }
      case (.nextState(let o), .operationReadyAt(let c, _)),
        (.nextState(let o), .operationStartsAt(let c, _)),
        (.nextState(let o), .operationFinishesAt(let c, _)),
        (.cancelledRuns(let o), .operationStartsAt(let c, _)),
        (.cancelledStops(let o), .operationFinishesAt(let c, _)),
        (.readyStarts(let o), .operationStartsAt(let c, _)),
        (.suspendedRuns(let o), .operationFinishesAt(let c, _)):
        o == c
      default: false
      }
    }
  }

  // MARK: - Kinds

  private func startQuestion() -> QuizQuestion? {
    // Only when the ones that start are on the board already: an operation added later cannot be
    // predicted from what the room sees.
    guard let (i, op, cause) = firstState(where: { _, _, to, _ in to == .executing }),
      model.operation(named: op) != nil
    else { return nil }
    let waiting = model.operations.filter { $0.state < .executing }.map(\.name)
    guard waiting.count >= 2 || (waiting.count == 1 && waiting[0] != op) else { return nil }
    // Nothing on the board can start without a command (every waiting operation is held by a
    // cycle, a suspended queue or a limit of 0), and the run's next start comes after one: "none
    // of them" is the answer.
    if let c = future[..<i].firstIndex(where: \.isCommand), waitingNeedACommand() {
      guard case .command(let command, let target, let value, _) = future[c].kind else {
        return nil
      }
      let (choices, _) = Self.choices(answer: waiting[0], others: Array(waiting.prefix(3)))
      let all = choices + [Self.noneOfThem]
      let what = [command, target, value].compactMap { $0 }.joined(separator: " ")
      // "Next" would otherwise take in what the command starts: the question is about the run
      // as it stands.
      return QuizQuestion(
        kind: .nextStart,
        prompt: "Which operation starts executing next, before any command (a resume, a new "
          + "limit, a cancel)?", choices: all,
        answer: all.count - 1, revealAt: shown + c + 1,
        explanation: "none of them starts until the scripted \(what) at "
          + "\(clockText(future[c].time))s", focus: target)
    }
    // The first operation each queue starts at that same instant is a right answer: Foundation
    // orders nothing between queues, but a queue starts its own in its order (SEMANTICS F1).
    let instant = future[i].time
    var together: [String] = []
    var accepted: Set<String> = []
    var queuesSeen: Set<String> = []
    var last = i
    for (j, e) in future.enumerated().dropFirst(i) {
      guard abs(e.time - instant) < 1e-9 else { break }
      if case .state(let o, _, .executing, _) = e.kind, let row = model.operation(named: o) {
        together.append(o)
        if queuesSeen.insert(row.queue).inserted { accepted.insert(o) }
        last = j
      }
    }
    // The choices hold every operation that starts then (up to the limit), in the table's order.
    let picked = Set(together.prefix(Self.maxChoices - 1))
      .union(
        waiting.filter { !together.contains($0) }.prefix(max(1, Self.maxChoices - together.count)))
    let choices = waiting.filter(picked.contains)
    let answer = choices.firstIndex(of: op) ?? 0
    let also = together.filter { $0 != op }
    return QuizQuestion(
      kind: .nextStart, prompt: "Which operation starts executing next?", choices: choices,
      answer: answer, accepted: choices.indices.filter { accepted.contains(choices[$0]) },
      revealAt: shown + last + 1,
      explanation: "\(op) started: \(cause.text)"
        + (also.isEmpty
          ? "" : "; at the same instant \(also.joined(separator: ", ")) started too"),
      focus: op)
  }

  private func stateQuestion() -> QuizQuestion? {
    // About an operation on the board that is still waiting (one not added yet has nothing to
    // predict from, and an executing one can only go on to finishing).
    guard
      let (i, op, cause) = firstState(where: { name, from, _, _ in
        from < .executing && model.operation(named: name) != nil
      }),
      case .state(_, let from, let to, _) = future[i].kind
    else { return nil }
    if from == .ready { return readyQuestion(i, op, cause, to) }
    let later = OperationState.allCases.filter { $0 > from }.map(\.rawValue)
    guard later.count >= 2 else { return nil }
    let (choices, answer) = Self.choices(answer: to.rawValue, others: later)
    return QuizQuestion(
      kind: .nextState(operation: op),
      prompt: "\(op) is \(from.rawValue). Which state does it enter next?", choices: choices,
      answer: answer, revealAt: shown + i + 1,
      explanation: "\(op) \(from.rawValue) → \(to.rawValue): \(cause.text)", focus: op)
  }

  private static let startsNow = "yes: it starts executing now"
  private static let startsLater = "no: ready means it may start, not that it has"

  /// Ready is not executing: whether a ready operation starts at this very instant.
  private func readyQuestion(_ i: Int, _ op: String, _ cause: StateCause, _ to: OperationState)
    -> QuizQuestion?
  {
    guard to == .executing else { return nil }
    let now = abs(future[i].time - model.now) < 1e-9
    return QuizQuestion(
      kind: .readyStarts(operation: op),
      prompt: "\(op) is ready. Does it start executing now?",
      choices: [Self.startsNow, Self.startsLater], answer: now ? 0 : 1, revealAt: shown + i + 1,
      explanation: "\(op) ready → executing at \(clockText(future[i].time))s: \(cause.text)",
      focus: op)
  }

  private static let runsYes = "yes: its work runs"
  private static let runsNo = "no: it finishes without running its work"

  private func cancelledQuestions() -> [QuizQuestion] {
    model.operations.filter { $0.cancelled && $0.state < .executing }.compactMap {
      op -> QuizQuestion? in
      // Decided at its first transition into executing or beyond.
      guard
        let (i, _, cause) = firstState(where: { name, _, to, _ in
          name == op.name && to >= .executing
        }), case .state(_, _, let to, _) = future[i].kind
      else { return nil }
      let runs = to == .executing
      return QuizQuestion(
        kind: .cancelledRuns(operation: op.name),
        prompt: "\(op.name) is cancelled while \(op.state.rawValue). Will its work run?",
        choices: [Self.runsYes, Self.runsNo], answer: runs ? 0 : 1, revealAt: shown + i + 1,
        explanation: "\(op.name) → \(to.rawValue): \(cause.text)", focus: op.name)
    }
  }

  private static let stopsAtOnce = "it stops at once"
  private static let stopsAtCheck = "it stops when its work next checks isCancelled"
  private static let stopsNever = "it runs to its end: cancel only sets a flag"

  /// Cancelling does not stop work: how does the cancelled, executing operation's work end?
  private func cancelledStopsQuestions() -> [QuizQuestion] {
    model.operations.filter { $0.cancelled && $0.state == .executing && $0.kind != .group }
      .compactMap { op -> QuizQuestion? in
        guard
          let (i, _, cause) = firstState(where: { name, _, to, _ in
            name == op.name && to == .finishing
          })
        else { return nil }
        let answer: Int
        switch cause {
        case .finishedAtOnce: answer = 0
        case .noticedCancel: answer = 1
        case .ranDespiteCancel: answer = 2
        default: return nil
        }
        return QuizQuestion(
          kind: .cancelledStops(operation: op.name),
          prompt: "\(op.name) is executing and has been cancelled. What does its work do?",
          choices: [Self.stopsAtOnce, Self.stopsAtCheck, Self.stopsNever], answer: answer,
          revealAt: shown + i + 1, explanation: "\(op.name) → finishing: \(cause.text)",
          focus: op.name)
      }
  }

  private static let suspendedRunsOn = "it keeps running to its end"
  private static let suspendedPauses = "it pauses until the queue resumes"
  private static let suspendedCancelled = "it is cancelled"

  /// Suspension does not stop running work: an operation executing on a suspended queue.
  private func suspendedQuestions() -> [QuizQuestion] {
    let suspended = Set(model.queues.filter(\.suspended).map(\.name))
    return model.operations.filter {
      $0.state == .executing && !$0.cancelled && suspended.contains($0.queue)
    }.compactMap { op -> QuizQuestion? in
      guard
        let (i, _, cause) = firstState(where: { name, _, to, _ in
          name == op.name && to == .finishing
        })
      else { return nil }
      // Only when the queue is still suspended as it finishes: otherwise a resume got there first.
      let resumed = future[..<i].contains {
        if case .queueResumed(op.queue) = $0.kind { return true }
        return false
      }
      let cancelled = future[..<i].contains { $0.kind.operation == op.name && $0.isCancel }
      guard !resumed, !cancelled else { return nil }
      return QuizQuestion(
        kind: .suspendedRuns(operation: op.name),
        prompt: "\(op.queue) is suspended while \(op.name) is executing on it. What happens to it?",
        choices: [Self.suspendedPauses, Self.suspendedRunsOn, Self.suspendedCancelled], answer: 1,
        revealAt: shown + i + 1,
        explanation: "\(op.name) → finishing: \(cause.text), on the suspended \(op.queue)",
        focus: op.name)
    }
  }

  /// A lock two or more operations wait for now: which of them gets it when it is released.
  private func lockQuestions() -> [QuizQuestion] {
    var waiting: [String: [String]] = [:]
    for op in model.operations {
      if let w = op.waitingForLock { waiting[w.category, default: []].append(op.name) }
    }
    var decided: Set<String> = []
    var questions: [QuizQuestion] = []
    for (i, e) in future.enumerated() {
      // Only the next holder of each category is asked about.
      guard case .exclusivityAcquired(let op, let category) = e.kind,
        decided.insert(category).inserted, let rivals = waiting[category],
        rivals.count >= 2 || !rivals.contains(op)
      else { continue }
      let (choices, answer) = Self.choices(answer: op, others: rivals)
      // The engine's cause: the state event of the operation that goes with the lock.
      var why = "\(op) took the \(category) exclusivity lock"
      var reveal = i
      for (j, e) in future.enumerated().dropFirst(i) {
        if case .state(op, let from, let to, let c) = e.kind {
          why = "\(op) \(from.rawValue) → \(to.rawValue): \(c.text)"
          reveal = j
          break
        }
      }
      questions.append(
        QuizQuestion(
          kind: .lock(category: category),
          prompt: "\(rivals.joined(separator: " and ")) \(rivals.count == 1 ? "waits" : "wait") "
            + "for the \(category) exclusivity lock. Which operation gets it next?",
          choices: choices, answer: answer, revealAt: shown + reveal + 1,
          explanation: why, focus: op))
    }
    return questions
  }

  // MARK: - Helpers

  /// Every operation waiting on the board is held by what only a command changes: a dependency
  /// cycle, a suspended queue, a limit of 0, or a dependency or lock holder held so.
  private func waitingNeedACommand() -> Bool {
    let reasons = Dictionary(
      model.projection.stuckOperations().map { ($0.operation, $0.reason) },
      uniquingKeysWith: { a, _ in a })
    func held(_ name: String, depth: Int) -> Bool {
      guard depth < 64, let op = model.operation(named: name), op.state < .executing else {
        return false
      }
      switch reasons[name] {
      case .cycle, .suspendedQueue, .zeroLimit, .slotsHeldForLocks: return true
      case .waitsFor(let other): return held(other, depth: depth + 1)
      default: return false
      }
    }
    let waiting = model.operations.filter { $0.state < .executing }
    return !waiting.isEmpty && waiting.allSatisfy { held($0.name, depth: 0) }
  }

  /// The first future state event matching, with its index, operation and cause.
  private func firstState(
    where matches: (String, OperationState, OperationState, StateCause) -> Bool
  ) -> (Int, String, StateCause)? {
    for (i, e) in future.enumerated() {
      if case .state(let op, let from, let to, let cause) = e.kind, matches(op, from, to, cause) {
        return (i, op, cause)
      }
    }
    return nil
  }

  /// The answer among up to three others. Others keep their order (the table's, or the lifecycle's)
  /// so the answer's place gives nothing away.
  static func choices(answer: String, others: [String]) -> (choices: [String], answer: Int) {
    var all = others
    if !all.contains(answer) { all.append(answer) }
    if all.count > maxChoices {
      // A window of neighbours, placed by the name (not always the same slot for the answer).
      let at = all.firstIndex(of: answer)!
      let slot = answer.unicodeScalars.reduce(0) { $0 + Int($1.value) } % maxChoices
      let start = min(max(0, at - slot), all.count - maxChoices)
      all = Array(all[start..<start + maxChoices])
    }
    return (all, all.firstIndex(of: answer)!)
  }
}

extension Event {
  fileprivate var isCommand: Bool { if case .command = kind { true } else { false } }
  fileprivate var isCancel: Bool { if case .cancelled = kind { true } else { false } }
}
