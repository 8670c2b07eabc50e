import OpsEngine
import OpsEvents

/// The last key pressed and what it did, in words the back row can follow
/// ("s — network suspended: nothing new starts; download keeps running"). For a key command the words
/// come from the engine's events after it (their causes) and the operations still running; for any
/// other key, from the status line.
struct KeyEffect: Sendable, Equatable {
  var key: String
  var effect: String
  var text: String { "\(key) — \(effect)" }

  /// At most this many consequences are named; the rest are counted.
  static let named = 3

  /// What a key showed before it acted: the rest of an engine step that a moment held back. An
  /// engine step is one instant's chain of consequences (a finish readies a dependent and its
  /// queue starts it), which the engine runs whole: a command comes before or after it. Nil
  /// when the key showed nothing first.
  static func heldBack(_ shown: ArraySlice<LogEntry>) -> String? {
    let visible = shown.filter { !$0.isBookkeeping }
    guard let time = visible.last?.event.time else { return nil }
    let changes = visible.compactMap { entry -> String? in
      guard case .state(let op, _, let to, let cause) = entry.event.kind else { return nil }
      return phrase(op, to, cause)
    }
    var parts = Array(changes.prefix(named))
    if changes.count > named { parts.append("\(changes.count - named) more changes") }
    let what = parts.isEmpty ? " (\(visible.count) events)" : ": " + parts.joined(separator: ", ")
    return "first the rest of \(clockText(time))s played out\(what)"
  }

  /// The effect of a key command, from the events it caused (`after`, the command's own first) and
  /// the board as it is now.
  static func ofCommand(
    _ command: Command, outcome: CommandOutcome, after: ArraySlice<LogEntry>, model: BoardModel
  ) -> String {
    if case .rejected(let why) = outcome { return "refused: \(why)" }
    var parts: [String] = []
    let consequences = after.compactMap { entry -> String? in
      guard case .state(let op, _, let to, let cause) = entry.event.kind, !entry.isBookkeeping
      else { return nil }
      return phrase(op, to, cause)
    }
    parts += consequences.prefix(named)
    if consequences.count > named { parts.append("\(consequences.count - named) more changes") }
    let head: String
    switch command {
    case .suspend(let q):
      head = "\(q) suspended"
      parts.insert("nothing new starts", at: 0)
      let running = running(in: q, model)
      if !running.isEmpty { parts.append(keepRunning(running)) }
    case .resume(let q):
      head = "\(q) resumed"
      if consequences.isEmpty { parts.append("nothing was waiting to start") }
    case .setMaxConcurrent(let q, let v):
      head = "\(q) limit \(limitText(v))"
      if consequences.isEmpty {
        let running = running(in: q, model)
        parts.append(running.isEmpty ? "nothing changes now" : keepRunning(running))
      }
    case .cancel(let op):
      head = "\(op) cancelled"
      if model.operation(named: op)?.state == .executing {
        parts.append("\(op) still executing: its work decides when it stops")
      }
    case .cancelAll(let q):
      head = "every operation of \(q) cancelled"
    }
    return parts.isEmpty ? head : head + ": " + parts.joined(separator: "; ")
  }

  /// A state change in a few words; the cause is the engine's where it is what the key did.
  private static func phrase(_ op: String, _ to: OperationState, _ cause: StateCause) -> String {
    switch (to, cause) {
    case (.executing, .started(_, let slot, let limit, _)):
      "\(op) starts (slot \(slot) of \(limitText(limit)))"
    case (.ready, .cancelled): "\(op) ready at once to finish"
    case (.finishing, .skippedMain): "\(op) skips main() and finishes"
    case (.finishing, .finishedAtOnce): "\(op) finishes at once"
    default: "\(op) \(to.rawValue)"
    }
  }

  /// "download keeps running", "download and prefetch keep running".
  private static func keepRunning(_ names: [String]) -> String {
    names.count == 1
      ? "\(names[0]) keeps running"
      : names.dropLast().joined(separator: ", ") + " and \(names.last!) keep running"
  }

  private static func running(in queue: String, _ model: BoardModel) -> [String] {
    model.operations.filter { $0.queue == queue && $0.state == .executing }.map(\.name)
  }
}

extension BoardSession {
  /// Remembers what the key just handled did, for the presenter layout. `shownFirst`: what the
  /// key showed before it acted, in words (see `heldBack`).
  func noteKey(_ input: KeyInput, logBefore: Int, commandsBefore: Int, shownFirst: String?) {
    guard input != .resize else { return }
    let key = KeyPattern.key(input).label(ascii: false)
    let first = shownFirst.map { $0 + "; then " } ?? ""
    if keyCommands.count > commandsBefore, ui.awaitingReply != nil, let status = ui.status {
      // Sent to a running program: its answer (`noteReply`) says what it did; nothing before.
      ui.lastKey = KeyEffect(key: key, effect: status.text)
    } else if keyCommands.count > commandsBefore, let sent = keyCommands.last {
      let outcome: CommandOutcome =
        ui.status?.kind == .rejected ? .rejected(ui.status?.text ?? "") : .applied
      let sentAt = min(max(sent.after, logBefore), log.count)
      let words = KeyEffect.ofCommand(
        sent.command, outcome: outcome, after: log[sentAt...], model: liveModel)
      ui.lastKey = KeyEffect(key: key, effect: first + words)
    } else if let status = ui.status {
      ui.lastKey = KeyEffect(key: key, effect: first + status.text)
    }
  }

  /// The last key and its effect in words (the presenter layout shows it).
  public var lastKeyEffect: String? { ui.lastKey?.text }
}
