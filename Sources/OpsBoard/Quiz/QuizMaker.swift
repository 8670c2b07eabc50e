import OpsEngine

/// Makes a question from what the board shows now and the events that will follow. Nothing here knows
/// any scenario: every question kind is found in the future events, and its answer is what they say.
struct QuizMaker {
  let model: BoardModel
  /// Every event shown so far.
  let shown: Int
  let future: [Event]
  /// Every operation's exclusivity categories, as they were added.
  let exclusivity: [String: [String]]

  /// At most this many choices, so they fit under the question at 80×24.
  static let maxChoices = 4

  /// A contested lock or a cancelled operation's fate when there is one (they are the lessons
  /// people guess wrong, and they pass quickly); otherwise which operation starts next and the next
  /// state of one, taking turns with the number asked so a session sees both.
  func question(turn: Int) -> QuizQuestion? {
    if let special = lockQuestion() ?? cancelledQuestion() { return special }
    let common = [startQuestion(), stateQuestion()].compactMap { $0 }
    return common.isEmpty ? nil : common[turn % common.count]
  }

  // MARK: - Kinds

  private func startQuestion() -> QuizQuestion? {
    // Only when the one that starts is on the board already: an operation added later cannot be
    // predicted from what the room sees.
    guard
      let (i, op, cause) = firstState(where: { _, _, to, _ in to == .executing }),
      model.operation(named: op) != nil
    else { return nil }
    let waiting = model.operations.filter { $0.state < .executing && $0.name != op }
      .map(\.name)
    guard !waiting.isEmpty else { return nil }
    let (choices, answer) = Self.choices(answer: op, others: waiting)
    return QuizQuestion(
      kind: .nextStart, prompt: "Which operation starts executing next?", choices: choices,
      answer: answer, revealAt: shown + i + 1, explanation: "\(op) started: \(cause.text)",
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
    let later = OperationState.allCases.filter { $0 > from }.map(\.rawValue)
    guard later.count >= 2 else { return nil }
    let (choices, answer) = Self.choices(answer: to.rawValue, others: later)
    return QuizQuestion(
      kind: .nextState(operation: op),
      prompt: "\(op) is \(from.rawValue). Which state does it enter next?", choices: choices,
      answer: answer, revealAt: shown + i + 1,
      explanation: "\(op) \(from.rawValue) → \(to.rawValue): \(cause.text)", focus: op)
  }

  private static let runsYes = "yes: its work runs"
  private static let runsNo = "no: it finishes without running its work"

  private func cancelledQuestion() -> QuizQuestion? {
    for op in model.operations where op.cancelled && op.state < .executing {
      // Decided at its first transition into executing or beyond.
      guard
        let (i, _, cause) = firstState(where: { name, _, to, _ in
          name == op.name && to >= .executing
        }), case .state(_, _, let to, _) = future[i].kind
      else { continue }
      let runs = to == .executing
      return QuizQuestion(
        kind: .cancelledRuns(operation: op.name),
        prompt: "\(op.name) is cancelled while \(op.state.rawValue). Will its work run?",
        choices: [Self.runsYes, Self.runsNo], answer: runs ? 0 : 1, revealAt: shown + i + 1,
        explanation: "\(op.name) → \(to.rawValue): \(cause.text)", focus: op.name)
    }
    return nil
  }

  /// A lock two or more operations wait for now: which of them gets it when it is released.
  private func lockQuestion() -> QuizQuestion? {
    var waiting: [String: [String]] = [:]
    for op in model.operations {
      if let w = op.waitingForLock { waiting[w.category, default: []].append(op.name) }
    }
    var decided: Set<String> = []
    for (i, e) in future.enumerated() {
      // Only the next holder of each category is asked about.
      guard case .exclusivityAcquired(let op, let category) = e.kind,
        decided.insert(category).inserted, let rivals = waiting[category],
        rivals.count >= 2 || !rivals.contains(op)
      else { continue }
      let (choices, answer) = Self.choices(answer: op, others: rivals)
      // The engine's cause: the state event of the operation that goes with the lock.
      let why =
        future[i...].lazy.compactMap { e -> String? in
          if case .state(op, let from, let to, let c) = e.kind {
            return "\(op) \(from.rawValue) → \(to.rawValue): \(c.text)"
          }
          return nil
        }.first ?? "\(op) took the \(category) exclusivity lock"
      return QuizQuestion(
        kind: .lock(category: category),
        prompt: "\(rivals.joined(separator: " and ")) \(rivals.count == 1 ? "waits" : "wait") for "
          + "the \(category) exclusivity lock. "
          + "Which operation gets it next?",
        choices: choices, answer: answer, revealAt: shown + i + 1,
        explanation: why, focus: op)
    }
    return nil
  }

  // MARK: - Helpers

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
