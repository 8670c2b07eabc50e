import OpsEngine

/// One line of the event log: the event, whose text (a transition's cause included) is the engine's.
public struct LogEntry: Sendable, Equatable {
  public let event: Event

  public init(event: Event) { self.event = event }

  /// The cause of a transition, as the engine stated it.
  public var cause: StateCause? {
    if case .state(_, _, _, let c) = event.kind { c } else { nil }
  }

  public var seq: Int { event.seq }
  public var time: Double { event.time }
  public var isCommand: Bool { if case .command = event.kind { true } else { false } }
  /// The operation or queue it is about (empty for commands, whose line names their target).
  public var subject: String { isCommand ? "" : event.kind.subject }

  /// Observer calls and the instant finishing → finished step: true to the engine, but they repeat what
  /// the transition before them said, so the small log pane leaves them out.
  public var isBookkeeping: Bool {
    switch event.kind {
    case .didStart, .willFinish, .didFinish, .state(_, .finishing, .finished, _): true
    default: false
    }
  }

  /// What happened, in plain words, without time or subject.
  public var message: String {
    switch event.kind {
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
