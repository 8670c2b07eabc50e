import OpsEngine
import OpsEvents

/// What a key asks of the session, as a value: decided from the board as shown (`KeyDecisions`)
/// without changing anything, then carried out by the session. So key logic is tested on these
/// values, without an event source or a session.
enum KeyOutcome: Equatable {
  /// Stop the board.
  case quit
  /// Send this command to the engine; `applied` is the status line once it took effect.
  case send(Command, applied: String)
  /// Cancel the queue's operations that a y/n question named (`cancelAll`, for that set only).
  case cancelAll(queue: String, operations: [String])
  /// Ask y/n first.
  case ask(Confirmation)
  /// Start the scenario again from the beginning (read from its file again, if it has one).
  case restart
  /// Open the view, or close it when it is shown.
  case toggle(BoardView)
  case open(BoardView)
  /// Nothing changes; the status line says this.
  case say(StatusMessage)
  /// An action of the session's own (time, speed, moments, the quiz, help), done in place.
  case session(BoardAction)
}

/// The keys whose outcome is decided from the model and the selection alone: quit, the view
/// openers, the engine's keys and the y/n answers.
enum KeyDecisions {
  /// The keys that send commands to the engine (`C` asks first).
  static let engineActions: Set<BoardAction> = [
    .suspendResume, .raiseLimit, .lowerLimit, .unlimited, .cancelOperation, .cancelAll,
  ]

  /// `live`: the board watches a running program, whose next steps are its own (the words say
  /// only what a command does, not what the engine would do next).
  static func outcome(
    of action: BoardAction, in model: BoardModel, selection: SharedState, live: Bool = false
  ) -> KeyOutcome {
    if let type = ViewRegistry.all.first(where: { $0.opener?.action == action }) {
      return .toggle(type.id)
    }
    let queue =
      selection.selectedQueue < model.queues.count ? model.queues[selection.selectedQueue] : nil
    switch action {
    case .quit: return .quit
    case .openDetail:
      if let why = refusal(in: model, selection, "show") { return .say(why) }
      return .open(.detail)
    case .suspendResume: return suspendOrResume(queue)
    case .raiseLimit: return changeLimit(queue, up: true)
    case .lowerLimit: return changeLimit(queue, up: false)
    case .unlimited: return removeLimit(queue)
    case .cancelOperation: return cancel(in: model, selection, live: live)
    case .cancelAll:
      guard let q = queue else { return .say(StatusMessage("no queue selected", .rejected)) }
      return .ask(
        Confirmation(
          question: "cancel every unfinished operation of \(q.name) (\(q.operationCount))?",
          effect: .cancelAll(queue: q.name, operations: unfinished(in: q.name, model))))
    default: return .session(action)
    }
  }

  /// The answer to a y/n question: only y (or Y) says yes.
  static func answer(_ c: Confirmation, _ input: KeyInput, in model: BoardModel) -> KeyOutcome {
    guard isYes(input) else { return .say(StatusMessage("not confirmed: nothing changed")) }
    switch c.effect {
    case .restart: return .restart
    case .cancelAll(let queue, let named):
      let now = unfinished(in: queue, model)
      guard now == named else {
        // What the question counted has changed (a batch finished, another came): ask again.
        return .ask(
          Confirmation(
            question:
              "\(queue) changed since you were asked: cancel its \(now.count) unfinished operations now?",
            effect: .cancelAll(queue: queue, operations: now)))
      }
      return .cancelAll(queue: queue, operations: named)
    }
  }

  static func isYes(_ input: KeyInput) -> Bool {
    input == .character("y") || input == .character("Y")
  }

  /// Why a key for the selected operation cannot act on it (`what`: the verb, "cancel" or
  /// "show"): it is not added yet at the moment shown, or nothing is selected. Nil when it can.
  static func refusal(in model: BoardModel, _ selection: SharedState, _ what: String)
    -> StatusMessage?
  {
    if let name = selection.selected, model.operation(named: name) == nil {
      return StatusMessage("\(name) is not added yet at this moment: nothing to \(what)", .rejected)
    }
    if selection.selectedRow(in: model) == nil {
      return StatusMessage("no operation selected", .rejected)
    }
    return nil
  }

  /// The queue's operations that have not finished, as the board shows them now.
  static func unfinished(in queue: String, _ model: BoardModel) -> [String] {
    model.operations.filter { $0.queue == queue && $0.state < .finishing }.map(\.name)
  }

  private static func suspendOrResume(_ queue: QueueInfo?) -> KeyOutcome {
    guard let q = queue else { return .say(StatusMessage("no queue to suspend yet", .rejected)) }
    if q.suspended {
      return .send(
        .resume(queue: q.name), applied: "\(q.name) resumed: waiting operations may start")
    }
    return .send(
      .suspend(queue: q.name),
      applied: "\(q.name) suspended: running operations continue, nothing new starts")
  }

  /// `+` raises the limit by one; from ∞ there is nothing higher. `-` lowers it by one down to 0;
  /// from ∞ it sets the number currently executing (at least 1), so nothing running is affected.
  private static func changeLimit(_ queue: QueueInfo?, up: Bool) -> KeyOutcome {
    guard let q = queue else { return .say(StatusMessage("no queue selected", .rejected)) }
    let old = q.limitText
    let value: Int
    switch (q.maxConcurrent, up) {
    case (nil, true):
      return .say(
        StatusMessage(
          "\(q.name) is unlimited (\(limitText(nil))) already: - sets a limit", .rejected))
    case (nil, false):
      value = max(q.slotsTaken, 1)
    case (0?, false):
      return .say(
        StatusMessage("\(q.name) already allows 0: nothing starts there; + raises it", .rejected))
    case (Int.max?, true):
      // A scenario's limit is any integer: the largest has no next one (n + 1 trapped).
      return .say(
        StatusMessage(
          "\(q.name) allows \(Int.max) already, the most there is: * removes the limit",
          .rejected))
    case (let n?, _):
      value = up ? n + 1 : n - 1
    }
    let note =
      up
      ? (q.suspended
        ? "nothing starts while it is suspended" : "waiting operations may start at once")
      : value == 0 ? "nothing new starts" : "running operations are not stopped"
    return .send(
      .setMaxConcurrent(queue: q.name, value: value),
      applied: "\(q.name) maxConcurrent \(old) → \(value): \(note)")
  }

  /// `*`: back to no limit (Foundation's default, -1).
  private static func removeLimit(_ queue: QueueInfo?) -> KeyOutcome {
    guard let q = queue else { return .say(StatusMessage("no queue selected", .rejected)) }
    guard q.maxConcurrent != nil else {
      return .say(StatusMessage("\(q.name) has no limit (\(limitText(nil))) already", .rejected))
    }
    let note =
      q.suspended ? "nothing starts while it is suspended" : "waiting operations may start at once"
    return .send(
      .setMaxConcurrent(queue: q.name, value: nil),
      applied: "\(q.name) maxConcurrent \(q.limitText) → \(limitText(nil)): \(note)")
  }

  private static func cancel(in model: BoardModel, _ selection: SharedState, live: Bool)
    -> KeyOutcome
  {
    if let why = refusal(in: model, selection, "cancel") { return .say(why) }
    guard let op = selection.selectedRow(in: model) else {
      return .say(StatusMessage("no operation selected", .rejected))
    }
    // A program's operation may override start(): what it does with the flag is its own.
    let what: String =
      switch op.state {
      case _ where live: "its isCancelled is set; what it does next is the program's"
      case .executing: "its work decides when it stops (isCancelled is set)"
      case .pending, .evaluatingConditions, .ready:
        // Foundation (SEMANTICS F7): a suspended queue starts nothing, cancelled ones included.
        model.queue(named: op.queue)?.suspended == true
          ? "it becomes ready at once; its queue is suspended: once resumed it starts it, "
            + "it skips main() and finishes"
          : "it becomes ready at once; its queue starts it, it skips main() and finishes"
      default: "its cancelled flag is set"
      }
    return .send(.cancel(operation: op.name), applied: "cancelled \(op.name): \(what)")
  }
}
