import OpsEngine
import OpsEvents

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
  /// The operation or queue it is about (a command's target).
  public var subject: String { event.kind.subject }

  /// Observer calls and the instant finishing → finished step: true to the engine, but they repeat what
  /// the transition before them said, so the small log pane leaves them out.
  public var isBookkeeping: Bool {
    switch event.kind {
    case .didStart, .willFinish, .didFinish, .state(_, .finishing, .finished, _): true
    default: false
    }
  }

  /// What happened, in plain words, without time or subject: the engine's wording, the same as the
  /// text trace's.
  public var message: String { event.kind.summary }

  /// What the log pane shows: the message, and for a command the line of Swift it stands for.
  public var shownMessage: String {
    guard let swift = swiftLine else { return message }
    return message + " → " + swift
  }

  /// For a command, the line of Foundation Swift it stands for (`network.isSuspended = true`).
  public var swiftLine: String? {
    guard case .command(let name, let target, let value, _) = event.kind else { return nil }
    return Command(name: name, target: target, value: value)?.swiftLine
  }

  /// `3.40  resize  pending → evaluatingConditions: its dependency download finished`.
  public var line: String {
    let subject = subject
    return clockText(time) + "  " + (subject.isEmpty ? "" : subject + "  ") + message
  }
}
