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

  /// `3.40  resize  pending → evaluatingConditions: its dependency download finished`.
  public var line: String {
    let subject = subject
    return clockText(time) + "  " + (subject.isEmpty ? "" : subject + "  ") + message
  }
}

/// Virtual seconds with two decimals ("3.40"), computed in integers so output never varies.
public func clockText(_ seconds: Double) -> String {
  let centis = Int64((seconds * 100).rounded())
  let sign = centis < 0 ? "-" : ""
  let c = abs(centis)
  let frac = c % 100
  return sign + String(c / 100) + "." + (frac < 10 ? "0" : "") + String(frac)
}

/// A short duration for narrow columns: `0.25s`, `12.5s`, `340s`, `58m`.
public func durationText(_ seconds: Double) -> String {
  let s = max(0, seconds)
  if s < 9.995 { return clockText(s) + "s" }
  let tenths = Int64((s * 10).rounded())
  if tenths < 1000 { return String(tenths / 10) + "." + String(tenths % 10) + "s" }
  let whole = Int64(s.rounded())
  if whole < 10_000 { return String(whole) + "s" }
  return String(whole / 60) + "m"
}
