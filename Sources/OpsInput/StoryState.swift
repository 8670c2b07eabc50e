import OpsEngine
import OpsEvents

/// What an event stream has told so far, kept as state rather than history: the queues (limit,
/// suspension, QoS) and the unfinished operations (how each was added, its state, its cancelled
/// flag, dependencies added later). A probe keeps one of everything it published, so a viewer that
/// comes late, or after events were dropped, is sent where the program is (`events(catchingUp:)`)
/// instead of a story with a hole in it.
///
/// O(1) per event; one entry per queue and per unfinished operation (a finished one is let go).
public struct StoryState: Sendable {
  public struct QueueFacts: Sendable, Equatable {
    public var limit: Int?
    public var suspended: Bool
    public var qos: QoS
  }

  public struct OperationFacts: Sendable, Equatable {
    /// The `operationAdded` event, with the dependencies added after it appended.
    public var added: EventKind
    public var state: OperationState
    public var cancelled: Bool
    /// It was seen executing (a cancelled operation that never did finishes from ready).
    public var executed: Bool
    /// When it was added among the others: a snapshot lists operations in the order they came.
    var order: Int
  }

  public private(set) var queues: [String: QueueFacts] = [:]
  private var queueOrder: [String] = []
  public private(set) var operations: [String: OperationFacts] = [:]
  private var added = 0
  /// The seq and time of the last event applied.
  public private(set) var lastSeq = 0
  public private(set) var lastTime = 0.0

  public init() {}

  public mutating func apply(_ event: borrowing Event) {
    lastSeq = event.seq
    lastTime = event.time
    apply(event.kind)
  }

  public mutating func apply(_ kind: EventKind) {
    switch kind {
    case .queueAdded(let q, let limit, let suspended, let qos):
      if queues[q] == nil { queueOrder.append(q) }
      queues[q] = QueueFacts(limit: limit, suspended: suspended, qos: qos)
    case .queueSuspended(let q): queues[q]?.suspended = true
    case .queueResumed(let q): queues[q]?.suspended = false
    case .queueMaxConcurrent(let q, let limit): queues[q]?.limit = limit
    case .operationAdded(let o, _, _, _, _, _, _, _, _):
      added += 1
      operations[o] = OperationFacts(
        added: kind, state: .initialized, cancelled: false, executed: false, order: added)
    case .dependencyAdded(let o, let d):
      guard let facts = operations[o] else { return }
      operations[o]!.added = Self.adding(dependency: d, to: facts.added)
    case .state(let o, _, let to, _):
      guard operations[o] != nil else { return }
      if to == .finished {
        operations[o] = nil
      } else {
        operations[o]!.state = to
        if to == .executing { operations[o]!.executed = true }
      }
    case .cancelled(let o, _, _): operations[o]?.cancelled = true
    // Not part of a snapshot: conditions, locks and observer calls from before it are not replayed.
    case .conditionWaiting, .conditionStarted, .conditionResult, .exclusivityWaiting,
      .exclusivityAcquired, .exclusivityReleased, .cancelTooLate, .didStart, .didProduce,
      .willFinish, .didFinish, .completion, .cycleDetected, .command, .warning, .refused:
      break
    }
  }

  /// The events that take a stream which told `known` to where this one is, each a step the
  /// contract allows: queues added or changed, operations added (with their dependencies and
  /// cancelled flag), and each operation moved one lifecycle step at a time to its state, every move
  /// marked `sampled` (the step was not seen, only where it led). An operation `known` has unfinished
  /// that this one does not finishes (through executing unless it was cancelled before it ran).
  /// From an empty `StoryState` this is a snapshot of the whole state.
  public func events(catchingUp known: StoryState) -> [EventKind] {
    var out: [EventKind] = []
    for q in queueOrder {
      guard let now = queues[q] else { continue }
      guard let then = known.queues[q] else {
        out.append(
          .queueAdded(queue: q, maxConcurrent: now.limit, suspended: now.suspended, qos: now.qos))
        continue
      }
      if then.suspended != now.suspended {
        out.append(now.suspended ? .queueSuspended(queue: q) : .queueResumed(queue: q))
      }
      if then.limit != now.limit { out.append(.queueMaxConcurrent(queue: q, value: now.limit)) }
    }
    // Finished while unseen: first, as their slots were freed before what came after.
    for (o, then) in known.operations.sorted(by: { $0.value.order < $1.value.order })
    where operations[o] == nil {
      Self.steps(
        o, from: then.state, to: .finished, executed: then.executed || !then.cancelled, into: &out)
    }
    for (o, now) in operations.sorted(by: { $0.value.order < $1.value.order }) {
      let then = known.operations[o]
      if then == nil { out.append(now.added) }
      if now.cancelled, then?.cancelled != true {
        out.append(.cancelled(operation: o, errors: [], cause: .command))
      }
      Self.steps(
        o, from: then?.state ?? .initialized, to: now.state, executed: now.executed, into: &out)
    }
    return out
  }

  /// One `sampled` transition per lifecycle step from `from` to `to`.
  static func steps(
    _ o: String, from: OperationState, to: OperationState, executed: Bool,
    into out: inout [EventKind]
  ) {
    var s = from
    while s < to {
      let next: OperationState =
        switch s {
        case .initialized: .pending
        case .pending: to == .evaluatingConditions ? .evaluatingConditions : .ready
        case .evaluatingConditions: .ready
        case .ready: to == .executing || executed ? .executing : .finishing
        case .executing: .finishing
        case .finishing, .finished: .finished
        }
      out.append(.state(operation: o, from: s, to: next, cause: .sampled))
      s = next
    }
  }

  private static func adding(dependency d: String, to kind: EventKind) -> EventKind {
    guard
      case .operationAdded(let o, let q, let p, let qos, let k, let deps, let c, let x, let w) =
        kind,
      !deps.contains(d)
    else { return kind }
    return .operationAdded(
      operation: o, queue: q, priority: p, qos: qos, kind: k, dependencies: deps + [d],
      conditions: c, exclusivity: x, work: w)
  }
}
