import OpsEvents

/// How many operations of a queue are in each state. A fixed array indexed by `OperationState.order`.
public struct StateCounts: Sendable, Equatable {
  private var storage = [Int](repeating: 0, count: OperationState.allCases.count)

  public init() {}

  public subscript(state: OperationState) -> Int {
    get { storage[state.order] }
    set { storage[state.order] = newValue }
  }

  public var total: Int { storage.reduce(0, +) }
}

/// A queue as the events describe it.
public struct QueueInfo: Sendable, Equatable {
  public let name: String
  public let qos: QoS
  /// `nil` is Foundation's default: no limit (shown as ∞).
  public internal(set) var maxConcurrent: Int?
  public internal(set) var suspended: Bool
  /// Its limit and suspension from the moment it was added, one entry per change (the exports draw
  /// them over time).
  public internal(set) var changes: [QueueChange] = []
  public internal(set) var counts = StateCounts()
  /// Operations of this queue whose cancelled flag is set.
  public internal(set) var cancelled = 0
  /// Unfinished operations (projection indices); ordered by add order when read through `members`.
  var memberSet = Set<Int>()
  /// Executing operations (projection indices).
  var executingSet = Set<Int>()
  /// Ready operations by priority level (veryLow … veryHigh), so a start looks only at those it can
  /// overtake. Unordered lists whose records keep their places (`OperationInfo.readySlot`): no
  /// hashing when an operation becomes ready or starts.
  var readyByPriority = [[Int]](repeating: [], count: 5)

  public var executing: Int { counts[.executing] }
  /// Operations it started that are still ready, asking again for a lock given back while it was
  /// suspended (X10): each holds a slot without executing.
  public internal(set) var reclaiming = 0
  /// Slots in use: what its limit counts.
  public var slotsTaken: Int { executing + reclaiming }
  /// Foundation's `operationCount`: operations added that have not finished.
  public var operationCount: Int { counts.total - counts[.finished] }
  public var limitText: String { OpsEvents.limitText(maxConcurrent) }
  public var isAtLimit: Bool { maxConcurrent.map { slotsTaken >= $0 } ?? false }
}

/// A queue's settings from `time` on.
public struct QueueChange: Sendable, Equatable {
  public let time: Double
  /// `nil`: no limit.
  public let maxConcurrent: Int?
  public let suspended: Bool
}

/// An intervention (a `command` event): a key, a scripted action or an API call.
public struct CommandInfo: Sendable, Equatable {
  public let seq: Int
  public let time: Double
  public let command: String
  public let target: String
  public let value: String?
  public let source: CommandSource
}

/// A condition or an exclusivity category of an operation, with what happened to it.
public struct ConditionInfo: Sendable, Equatable {
  public enum Status: String, Sendable, Equatable {
    /// Not evaluated yet (its dependencies have not all finished, or its produced dependency runs).
    case waiting
    case evaluating, satisfied, failed
    /// Never evaluated: another condition failed first or the operation was cancelled.
    case abandoned
    /// A mutual-exclusivity category whose lock another operation holds.
    case waitingForExclusivity
    /// A mutual-exclusivity category whose lock this operation holds.
    case holdsLock
    /// The lock was held and given back when the operation finished.
    case released
  }

  /// The condition's label (`loggedIn`, `not(reachable)`), or the category of an exclusivity lock.
  public let name: String
  /// The category, for a mutual-exclusivity lock (from the event's typed `exclusivity` field).
  public let category: String?
  public internal(set) var status: Status = .waiting
  /// Who holds the lock this operation waits for.
  public internal(set) var holder: String?
  public internal(set) var error: String?
  /// The operation this condition produced and waits for before it is evaluated.
  public internal(set) var dependency: String?
  /// When its evaluation started and when its result came (the detail view's span).
  public internal(set) var evaluationStarted: Double?
  public internal(set) var evaluationEnded: Double?

  /// `Alert lock` for a mutual-exclusivity category, else the condition's own label.
  public var displayName: String { category.map { "\($0) lock" } ?? name }
  public var isLock: Bool { category != nil }
}

/// An observer call the engine made (didStart, willFinish, didFinish, completion), and when.
public struct ObserverCall: Sendable, Equatable {
  public let name: String
  public let time: Double
}

/// A state an operation entered, when, and why.
public struct StateVisit: Sendable, Equatable {
  // Largest first: 40 bytes a visit instead of 48 (every operation keeps about six).
  public let time: Double
  public let cause: StateCause?
  public let state: OperationState

  public init(state: OperationState, time: Double, cause: StateCause?) {
    self.time = time
    self.cause = cause
    self.state = state
  }
}

public struct Transition: Sendable, Equatable {
  public let from: OperationState
  public let to: OperationState
  public let time: Double
  public let cause: StateCause
}

/// A lint the engine raised (a `warning` event).
public struct WarningInfo: Sendable, Equatable {
  public let kind: String
  /// The operation or queue it is about.
  public let subject: String
  public let time: Double
  public let seq: Int
  public let message: String
}

/// Everything known about one operation, folded from its events.
public struct OperationInfo: Sendable, Equatable {
  public let name: String
  /// Position in add order.
  public internal(set) var index: Int
  public let queue: String
  /// Its queue's position in `Projection.queues` (nil if that queue was never added): the fold
  /// updates the queue on every transition, without hashing its name each time.
  public internal(set) var queueIndex: Int?
  public let priority: QueuePriority
  public let qos: QoS
  public let kind: OperationKind
  /// Seconds of work when uninterrupted (nil for a group).
  public let work: Double?
  public internal(set) var state: OperationState = .initialized
  public internal(set) var cancelled = false
  public internal(set) var cancelCause: CancelCause?
  /// When its cancelled flag was set.
  public internal(set) var cancelledAt: Double?
  public internal(set) var enteredState: Double
  public internal(set) var startedAt: Double?
  public internal(set) var finishedAt: Double?
  public internal(set) var readySince: Double?
  public internal(set) var dependencies: [String]
  public internal(set) var dependents: [String] = []
  /// Its conditions, then its exclusivity categories.
  public internal(set) var conditions: [ConditionInfo]
  public internal(set) var errors: [String] = []
  /// Its latest transition, read from its history (kept once, not twice: the board copies these
  /// records into its time-travel checkpoints).
  public var lastTransition: Transition? {
    let n = history.count
    guard n >= 2, let cause = history[n - 1].cause else { return nil }
    return Transition(
      from: history[n - 2].state, to: history[n - 1].state, time: history[n - 1].time, cause: cause)
  }
  /// Every state entered, in order, with its time and cause (at most seven).
  public internal(set) var history: [StateVisit]
  /// Observer calls in order.
  public internal(set) var observers: [ObserverCall] = []
  /// Part of a dependency cycle that was reported.
  public internal(set) var inCycle = false
  /// The operation that produced this one while executing, if any.
  public internal(set) var producedBy: String?
  /// The group it is a child of, if any (its queue is the group's inner queue).
  public internal(set) var parent: String?
  /// Started by its queue while ready, it waits to get back a lock (X10): it holds a slot and is
  /// out of the queue's ready line.
  public internal(set) var reclaiming = false
  /// Set while it waits for an exclusivity lock: (category, holder).
  public internal(set) var waitingForLock: (category: String, holder: String)?
  /// Higher-priority operations of its queue that started while this one was ready and waiting.
  public internal(set) var overtakenBy: [String] = []
  /// How many of its dependencies have finished, kept as they finish so nothing ever counts.
  public internal(set) var finishedDependencies = 0
  /// Its place in its queue's ready list of its priority while ready (-1: not ready). Bookkeeping of
  /// the fold, not compared.
  var readySlot = -1
  /// Sequence numbers of the events that made it ready and finished it.
  public internal(set) var readySeq: Int?
  public internal(set) var finishSeq: Int?

  public var flags: OperationFlags { OperationFlags(state: state, cancelled: cancelled) }
  /// Whether the progress of its work can be shown: an async operation's end is unknown.
  public var hasKnownDuration: Bool { kind != .async && work != nil }

  /// Seconds spent in the current state at `now`.
  public func timeInState(at now: Double) -> Double { max(0, now - enteredState) }

  /// Fraction of the work done, while executing and when the work has a known duration.
  public func progress(at now: Double) -> Double? {
    guard state == .executing, let start = startedAt, let w = work, hasKnownDuration else {
      return nil
    }
    guard w > 0 else { return 1 }
    return min(1, max(0, (now - start) / w))
  }

  /// The four flags as they were at `time` (the detail view's flags over time).
  public func flags(at time: Double) -> OperationFlags {
    let state = history.last { $0.time <= time }?.state ?? .initialized
    return OperationFlags(state: state, cancelled: (cancelledAt.map { $0 <= time }) ?? false)
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.name == b.name && a.state == b.state && a.cancelled == b.cancelled && a.errors == b.errors
      && a.enteredState == b.enteredState && a.dependencies == b.dependencies
      && a.dependents == b.dependents && a.conditions == b.conditions && a.history == b.history
      && a.observers == b.observers && a.inCycle == b.inCycle && a.producedBy == b.producedBy
      && a.overtakenBy == b.overtakenBy && a.finishedDependencies == b.finishedDependencies
      && a.waitingForLock?.category == b.waitingForLock?.category
  }
}

extension QueueInfo {
  mutating func noteChange(at time: Double) {
    changes.append(QueueChange(time: time, maxConcurrent: maxConcurrent, suspended: suspended))
  }
}

/// How many operations have each optional trait, kept as events are folded so a table can choose its
/// columns without scanning every operation on every frame.
public struct OperationTraits: Sendable, Equatable {
  /// A priority other than normal.
  public internal(set) var priority = 0
  /// A quality of service other than the default.
  public internal(set) var qos = 0
  /// At least one dependency.
  public internal(set) var dependencies = 0
  /// At least one condition or exclusivity category.
  public internal(set) var conditions = 0
  /// Errors, as the last cancel or finish left them.
  public internal(set) var errors = 0
  /// Cancelled. Not a column: the lints read it (`RanAfterFailedDependencyLint`).
  public internal(set) var cancelled = 0

  /// Counts `op`'s traits once more (`by: 1`) or once less (`by: -1`).
  mutating func count(_ op: OperationInfo, by delta: Int) {
    withUnsafePointer(to: op) { count(at: $0, by: delta) }
  }

  /// `count` of a record read in place (passing the record itself copied it: every field retained).
  mutating func count(at op: UnsafePointer<OperationInfo>, by delta: Int) {
    if op.pointee.priority != .normal { priority += delta }
    if op.pointee.qos != .default { qos += delta }
    if !op.pointee.dependencies.isEmpty { dependencies += delta }
    if !op.pointee.conditions.isEmpty { conditions += delta }
    if !op.pointee.errors.isEmpty { errors += delta }
    if op.pointee.cancelled { cancelled += delta }
  }
}
