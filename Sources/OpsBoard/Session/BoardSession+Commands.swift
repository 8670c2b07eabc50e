import OpsEngine
import OpsEvents

/// Keys that change the engine. Each goes through the source's `perform`, logged as a key command
/// before its effects; a command that cannot apply says why in the status line, and a source that
/// takes no commands (a recording, a read-only probe) says so.
extension BoardSession {
  /// The key commands of the present run, with the times they were sent (`play --save-actions`).
  public var keyCommandsSent: [(time: Double, command: Command)] {
    keyCommands.map { ($0.time, $0.command) }
  }

  /// Whether a restart reads the scenario again.
  var reloads: Bool { hasReload }

  /// Runs a command on the engine now, then shows what it caused. To a live program the command is
  /// only sent: the status says so, and says what the program did when its events arrive
  /// (`noteReply`), so a cancel that came too late is never shown as done.
  @discardableResult
  func send(
    _ command: Command, applied: @autoclosure () -> String,
    perform: (() -> CommandOutcome)? = nil
  ) -> CommandOutcome {
    if past != nil {
      ui.status = StatusMessage(
        "showing the past: commands change only the present; Space resumes first", .rejected)
      return .rejected("showing the past")
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
        "\(Self.sentWords) \(command.name) \(command.target)\(command.value.map { " \($0)" } ?? ""); waiting for its answer",
        .info)
      ui.awaitingReply = (command, applied())
    case .applied: ui.status = StatusMessage(applied(), .applied)
    case .rejected(let why): ui.status = StatusMessage(why, .rejected)
    }
    revealAll()
    refreshMomentClaims()
    return outcome
  }

  /// How the status line starts while a command waits for the program's answer.
  static let sentWords = "sent to the program:"

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
      // The presenter's last-key line waited for this answer too (unless another key came since).
      if let last = ui.lastKey, last.effect.hasPrefix(Self.sentWords) {
        ui.lastKey = KeyEffect(key: last.key, effect: answer.text)
      }
    }
  }

  /// Decide from everything the engine did: a moment may hold events back (the limit a scripted
  /// action just set), `send` reveals them before the command anyway, and a decision on the older
  /// state would be refused or act on an outdated value. What it showed is kept in `ui.heldBack`,
  /// so the key's words can say it came first.
  func showHeldBack() {
    guard past == nil else { return }
    let shownBefore = log.count
    revealAll()
    if log.count > shownBefore { ui.heldBack = shownBefore..<log.count }
  }
}
