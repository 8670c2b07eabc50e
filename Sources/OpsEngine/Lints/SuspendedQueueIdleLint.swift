/// A suspended queue holds work while nothing runs anywhere: nothing happens until it is resumed.
public struct SuspendedQueueIdleLint: Lint {
  public let kind = "suspendedQueueIdle"
  public let summary = "a suspended queue holds work while nothing else runs"
  public let teaching = "Nothing will happen until it is resumed."
  /// Seconds a suspended queue may hold work while nothing runs before it is flagged.
  public static let grace = 5.0

  private var deadlines = DeadlineSet()

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    // While anything executes no queue is idle: with no deadline to clear there is nothing to do
    // (the common case, and it spares a look at every queue on every event).
    if p.executingCount > 0 && deadlines.isEmpty { return }
    for q in p.queues {
      let holding = q.suspended && q.operationCount > 0 && p.executingCount == 0
      if holding {
        if !deadlines.contains(q.name) { deadlines.set(q.name, at: event.time + Self.grace) }
      } else {
        deadlines.remove(q.name)
      }
    }
  }

  public mutating func nextDeadline() -> Double? { deadlines.earliest() }

  public mutating func check(at time: Double, in p: Projection, _ out: inout LintOutput) {
    for name in deadlines.due(at: time) {
      guard let q = p.queue(named: name), q.suspended, q.operationCount > 0 else { continue }
      let n = q.operationCount
      out.raise(
        name,
        "Queue \(name) is suspended with \(n) operation\(n == 1 ? "" : "s") waiting and nothing else is running."
      )
    }
  }
}
