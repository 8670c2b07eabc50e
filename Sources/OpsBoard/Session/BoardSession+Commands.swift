import OpsEngine

/// Keys that change the engine. Each goes through `runtime.perform(_:source: .key)`, so it is logged as
/// a command before its effects; a command that cannot apply says why in the status line.
extension BoardSession {
  private var currentQueue: QueueInfo? {
    ui.selectedQueue < model.queues.count ? model.queues[ui.selectedQueue] : nil
  }

  /// Runs a command on the engine now, then shows what it caused.
  @discardableResult
  func send(_ command: Command, applied: @autoclosure () -> String) -> CommandOutcome {
    if replay != nil {
      ui.status = StatusMessage(
        "replaying the past: commands change only the present; Space resumes first", .rejected)
      return .rejected("replaying")
    }
    // Show everything first, so the command lands after what the user has seen.
    revealAll()
    let after = log.count
    let outcome = runtime.perform(command, source: .key)
    // Rejected ones too: they are logged, and the rebuilt log must match event for event.
    keyCommands.append(RecordedCommand(after: after, time: runtime.now, command: command))
    revealAll()
    switch outcome {
    case .applied: ui.status = StatusMessage(applied(), .applied)
    case .rejected(let why): ui.status = StatusMessage(why, .rejected)
    }
    return outcome
  }

  func suspendOrResume() {
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
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue selected", .rejected)
      return
    }
    let old = Vocabulary.limit(q.maxConcurrent)
    let value: Int
    switch (q.maxConcurrent, up) {
    case (nil, true):
      ui.status = StatusMessage("\(q.name) is unlimited (∞) already: - sets a limit", .rejected)
      return
    case (nil, false):
      value = max(q.executing, 1)
    case (0?, false):
      ui.status = StatusMessage(
        "\(q.name) already allows 0: nothing starts there; + raises it", .rejected)
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

  func cancelSelected() {
    ui.operations.update(model)
    guard ui.operations.count(model) > 0, let name = selectedOperation else {
      ui.status = StatusMessage("no operation selected", .rejected)
      return
    }
    let state = model.operation(named: name)?.state
    let what: String =
      switch state {
      case .executing?: "its work decides when it stops (isCancelled is set)"
      case .pending?, .evaluatingConditions?, .ready?:
        "it becomes ready at once; its queue starts it, it skips main() and finishes"
      default: "its cancelled flag is set"
      }
    send(.cancel(operation: name), applied: "cancelled \(name): \(what)")
  }

  func cancelAllOfQueue() {
    guard let q = currentQueue else {
      ui.status = StatusMessage("no queue selected", .rejected)
      return
    }
    send(
      .cancelAll(queue: q.name),
      applied: "cancelAll on \(q.name): every unfinished operation in it is cancelled")
  }
}
