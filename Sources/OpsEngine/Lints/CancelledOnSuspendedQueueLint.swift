import OpsEvents

/// Cancelling an operation of a suspended queue does not finish it: its queue must start it first.
/// Foundation (`Operation.swift`): a cancelled operation becomes ready and is finished by its queue's
/// start, which a suspended queue never does (swift-corelibs-foundation `TestOperationQueue`).
public struct CancelledOnSuspendedQueueLint: Lint {
  public var kind: String { "cancelledOnSuspendedQueue" }
  public var eventTypes: Set<EventType>? { [.cancelled] }
  public var summary: String { "an operation was cancelled while its queue is suspended" }
  public var teaching: String {
    "A cancelled operation still has to be started by its queue to finish (it then skips main()), "
      + "so it stays unfinished, and its dependents keep waiting, until the queue is resumed."
  }

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .cancelled(let o, _, _) = event.kind, let op = p.operation(named: o),
      op.state < .executing, let q = p.queue(named: op.queue), q.suspended
    else { return }
    out.raise(o, "\(o) was cancelled while its queue \(q.name) is suspended.")
  }
}
