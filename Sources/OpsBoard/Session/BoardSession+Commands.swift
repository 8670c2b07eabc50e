import OpsEngine
import OpsEvents

/// Keys that change the engine. Each goes through the source's `perform`, logged as a key command
/// before its effects; a command that cannot apply says why in the status line, and a source that
/// takes no commands (a recording, a read-only probe) says so.
extension BoardSession {
  private var currentQueue: QueueInfo? {
    ui.shared.selectedQueue < model.queues.count ? model.queues[ui.shared.selectedQueue] : nil
  }

  /// The key commands of the present run, with the times they were sent (`play --save-actions`).
  public var keyCommandsSent: [(time: Double, command: Command)] {
    keyCommands.map { ($0.time, $0.command) }
  }

  /// Whether a restart reads the scenario again.
  var reloads: Bool { hasReload }

  /// The selected operation if it exists at the moment shown, else nil and the status says why
  /// (`what`: the verb, "cancel" or "show").
  func selectedOrRefuse(_ what: String) -> OperationInfo? {
    ui.shared.clampSelection(model)
    if let name = ui.shared.selected, model.operation(named: name) == nil {
      ui.status = StatusMessage(
        "\(name) is not added yet at this moment: nothing to \(what)", .rejected)
      return nil
    }
    guard let op = ui.shared.selectedRow(in: model) else {
      ui.status = StatusMessage("no operation selected", .rejected)
      return nil
    }
    return op
  }

  /// Runs a command on the engine now, then shows what it caused. To a live program the command is
  /// only sent: the status says so, and says what the program did when its events arrive
  /// (`noteReply`), so a cancel that came too late is never shown as done.
  @discardableResult
  func send(
    _ command: Command, applied: @autoclosure () -> String,
    perform: (() -> CommandOutcome)? = nil
  ) -> CommandOutcome {
    if replay != nil {
      ui.status = StatusMessage(
        "replaying the past: commands change only the present; Space resumes first", .rejected)
      return .rejected("replaying")
    }
    if let why = source.commandRefusal {
      ui.status = StatusMessage(why, .rejected)
      return .rejected(why)
    }
    // Show everything first, so the command lands after what the user has seen.
    revealAll()
    let after = log.count
    let outcome = perform?() ?? source.perform(command)
    // Rejected ones too: they are logged, and the rebuilt log must match event for event.
    keyCommands.append(RecordedCommand(after: after, time: source.now, command: command))
    ui.awaitingReply = nil
    switch outcome {
    case .applied where source.isLive:
      ui.status = StatusMessage(
        "sent to the program: \(command.name) \(command.target)\(command.value.map { " \($0)" } ?? ""); waiting for its answer",
        .info)
      ui.awaitingReply = (command, applied())
    case .applied: ui.status = StatusMessage(applied(), .applied)
    case .rejected(let why): ui.status = StatusMessage(why, .rejected)
    }
    revealAll()
    refreshMomentClaims()
    return outcome
  }

  /// The program's answer to the command sent last, read from its events: what it did, or why not.
  func noteReply(_ event: Event) {
    guard let (command, applied) = ui.awaitingReply else { return }
    let target = command.target
    var answer: StatusMessage?
    switch (command, event.kind) {
    case (_, .refused(let o, let why)) where o == target || command.name == "cancelAll":
      answer = StatusMessage("the program refused \(command.name) \(target): \(why)", .rejected)
    case (.cancel, .cancelTooLate(let o)) where o == target:
      answer = StatusMessage(
        "too late: \(o) had finished when the cancel reached the program; nothing changed",
        .rejected)
    case (.cancelAll, .cancelTooLate(let o)):
      answer = StatusMessage(
        "\(o) had finished when the cancel reached the program: too late for it", .rejected)
    case (.cancel, .cancelled(let o, _, _)) where o == target:
      answer = StatusMessage(applied, .applied)
    case (.cancelAll(let q), .cancelled(let o, _, _))
    where model.operation(named: o)?.queue == q:
      answer = StatusMessage(applied, .applied)
    case (.suspend(let q), .queueSuspended(let s)) where q == s:
      answer = StatusMessage(applied, .applied)
    case (.resume(let q), .queueResumed(let s)) where q == s:
      answer = StatusMessage(applied, .applied)
    case (.setMaxConcurrent(let q, _), .queueMaxConcurrent(let s, _)) where q == s:
      answer = StatusMessage(applied, .applied)
    default: break
    }
    if let answer {
      ui.status = answer
      ui.awaitingReply = nil
    }
  }

  /// Decide from everything the engine did: a moment may hold events back (the limit a scripted
  /// action just set), `send` reveals them before the command anyway, and a decision on the older
  /// state would be refused or act on an outdated value.
  private func showHeldBack() {
    if replay == nil { revealAll() }
  }

  func suspendOrResume() {
    showHeldBack()
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue to suspend yet", .rejected)
      return
    }
    if q.suspended {
      send(.resume(queue: q.name), applied: "\(q.name) resumed: waiting operations may start")
    } else {
      send(
        .suspend(queue: q.name),
        applied: "\(q.name) suspended: running operations continue, nothing new starts")
    }
  }

  /// `+` raises the limit by one; from ∞ there is nothing higher. `-` lowers it by one down to 0;
  /// from ∞ it sets the number currently executing (at least 1), so nothing running is affected.
  func changeLimit(up: Bool) {
    showHeldBack()
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue selected", .rejected)
      return
    }
    let old = q.limitText
    let value: Int
    switch (q.maxConcurrent, up) {
    case (nil, true):
      ui.status = StatusMessage(
        "\(q.name) is unlimited (\(limitText(nil))) already: - sets a limit", .rejected)
      return
    case (nil, false):
      value = max(q.executing, 1)
    case (0?, false):
      ui.status = StatusMessage(
        "\(q.name) already allows 0: nothing starts there; + raises it", .rejected)
      return
    case (Int.max?, true):
      // A scenario's limit is any integer: the largest has no next one (n + 1 trapped).
      ui.status = StatusMessage(
        "\(q.name) allows \(Int.max) already, the most there is: * removes the limit", .rejected)
      return
    case (let n?, _):
      value = up ? n + 1 : n - 1
    }
    let note =
      up
      ? "waiting operations may start at once"
      : value == 0 ? "nothing new starts" : "running operations are not stopped"
    send(
      .setMaxConcurrent(queue: q.name, value: value),
      applied: "\(q.name) maxConcurrent \(old) → \(value): \(note)")
  }

  /// `*`: back to no limit (Foundation's default, -1).
  func removeLimit() {
    showHeldBack()
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue selected", .rejected)
      return
    }
    guard q.maxConcurrent != nil else {
      ui.status = StatusMessage("\(q.name) has no limit (\(limitText(nil))) already", .rejected)
      return
    }
    send(
      .setMaxConcurrent(queue: q.name, value: nil),
      applied:
        "\(q.name) maxConcurrent \(q.limitText) → \(limitText(nil)): waiting operations may start at once"
    )
  }

  func cancelSelected() {
    showHeldBack()
    guard let op = selectedOrRefuse("cancel") else { return }
    let name = op.name
    let state = op.state
    let what: String =
      switch state {
      case .executing: "its work decides when it stops (isCancelled is set)"
      case .pending, .evaluatingConditions, .ready:
        "it becomes ready at once; its queue starts it, it skips main() and finishes"
      default: "its cancelled flag is set"
      }
    send(.cancel(operation: name), applied: "cancelled \(name): \(what)")
  }

  /// `C` asks first: cancelling a whole queue cannot be undone. The question names a set (the
  /// queue's unfinished operations now); the answer applies to that set only, or asks again.
  func confirmCancelAll() {
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue selected", .rejected)
      return
    }
    ui.confirmation = Confirmation(
      question: "cancel every unfinished operation of \(q.name) (\(q.operationCount))?",
      action: .cancelAll(queue: q.name, operations: unfinished(in: q.name)))
  }

  /// The queue's operations that have not finished, as the board shows them now.
  private func unfinished(in queue: String) -> [String] {
    model.operations.filter { $0.queue == queue && $0.state < .finishing }.map(\.name)
  }

  func cancelAll(_ queue: String, named: [String]) {
    showHeldBack()
    let now = unfinished(in: queue)
    guard now == named else {
      // What the question counted has changed (a batch finished, another came): ask again.
      ui.confirmation = Confirmation(
        question:
          "\(queue) changed since you were asked: cancel its \(now.count) unfinished operations now?",
        action: .cancelAll(queue: queue, operations: now))
      return
    }
    send(
      .cancelAll(queue: queue),
      applied: "cancelAll on \(queue): every unfinished operation in it is cancelled",
      perform: { self.source.cancel(named: named, in: queue) })
  }
}
