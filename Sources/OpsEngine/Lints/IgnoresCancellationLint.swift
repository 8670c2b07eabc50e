import OpsEvents

/// Cancelled while executing, the operation kept executing: its work checks isCancelled rarely or
/// never. Said as it is known when raised: a second after the cancel nobody knows yet whether the
/// work will still look. Groups are left out: a cancelled group executes until its children finish,
/// and a child that keeps executing is flagged itself.
public struct IgnoresCancellationLint: Lint {
  public var kind: String { "ignoresCancellation" }
  public var eventTypes: Set<EventType>? { [.cancelled, .state] }
  public var states: Set<OperationState>? { [.executing] }
  public var summary: String { "an operation kept executing for a while after it was cancelled" }
  public var teaching: String {
    "cancel() only sets isCancelled: the work stops where it checks the flag, if it ever does."
  }
  /// Seconds an operation may keep executing after being cancelled before it is flagged.
  public static let grace = 1.0

  private var deadlines = DeadlineSet()

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    switch event.kind {
    case .cancelled(let o, _, _):
      if let op = p.operation(named: o), op.state == .executing, op.kind != .group {
        deadlines.set(o, at: event.time + Self.grace)
      }
    case .state(let o, .executing, .finishing, let cause):
      deadlines.remove(o)
      // Caught at the finish too: the work ran to its end well after the cancel.
      if cause == .ranDespiteCancel, let op = p.operation(named: o), let c = op.cancelledAt,
        event.time - c > Self.grace
      {
        out.raise(o, "\(o) was cancelled at \(fixed3(c))s and ran its work to the end.")
      }
    default:
      break
    }
  }

  public mutating func nextDeadline(in projection: Projection) -> Double? {
    deadlines.earliest()
  }

  public mutating func check(at time: Double, in p: Projection, _ out: inout LintOutput) {
    for o in deadlines.due(at: time) {
      guard let op = p.operation(named: o), op.state == .executing, let c = op.cancelledAt else {
        continue
      }
      out.raise(
        o, "\(o) was cancelled at \(fixed3(c))s and is still executing \(fixed3(time - c))s later.")
    }
  }
}
