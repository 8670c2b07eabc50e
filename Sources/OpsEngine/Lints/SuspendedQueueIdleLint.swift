import OpsEvents

/// A suspended queue holds work while nothing runs anywhere: nothing happens until it is resumed.
public struct SuspendedQueueIdleLint: Lint {
  public var kind: String { "suspendedQueueIdle" }
  /// What changes a queue's suspension, its operation count or the executing count.
  public var eventTypes: Set<EventType>? {
    [.queueAdded, .queueSuspended, .queueResumed, .operationAdded, .state]
  }
  /// What it reads changes only when an operation starts or stops executing or finishes.
  public var states: Set<OperationState>? { [.executing, .finished] }
  public var summary: String { "a suspended queue holds work while nothing else runs" }
  public var teaching: String { "Nothing will happen until it is resumed." }
  /// Seconds a suspended queue may hold work while nothing runs before it is flagged.
  public static let grace = 5.0

  private var deadlines = DeadlineSet()

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    // With no deadline to clear, nothing to do while anything executes or no queue is suspended
    // (the common case: a serial queue's executing count drops to 0 between every finish and the
    // next start, and a look at every queue then was a tenth of the live runtime's delivery).
    if deadlines.isEmpty && (p.executingCount > 0 || p.suspendedQueueCount == 0) { return }
    // Fields read in place: a copy of each queue's record retains all of its sets.
    for i in p.queues.indices {
      let name = p.queues[i].name
      let holding =
        p.queues[i].suspended && p.queues[i].operationCount > 0 && p.executingCount == 0
      if holding {
        if !deadlines.contains(name) { deadlines.set(name, at: event.time + Self.grace) }
      } else if !deadlines.isEmpty {
        deadlines.remove(name)
      }
    }
  }

  public mutating func nextDeadline(in projection: Projection) -> Double? {
    deadlines.earliest()
  }

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
