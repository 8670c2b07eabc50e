/// The engine's state rebuilt from its events alone: a pure fold (`replica.apply(event)` for each event),
/// so it can be rebuilt at any point of a recorded stream (time travel) and in any process (traces).
/// Explanations and warnings are computed from it, never guessed.
public struct EngineReplica: Sendable {
  public struct QueueInfo: Sendable, Equatable {
    public var name: String
    public var maxConcurrent: Int?
    public var suspended: Bool
    public var qos: QualityOfService
    /// Operations executing (or started and finishing) in start order.
    public var executing: [String] = []
    /// Unfinished operations in the order they were added.
    public var members: [String] = []

    public var limitText: String { maxConcurrent.map(String.init) ?? "∞" }
    public var isAtLimit: Bool { maxConcurrent.map { executing.count >= $0 } ?? false }
  }

  public enum ConditionStatus: String, Sendable, Equatable {
    case waiting, evaluating, satisfied, failed
  }

  public struct OperationInfo: Sendable, Equatable {
    public var name: String
    public var queue: String
    public var priority: QueuePriority
    public var qos: QualityOfService
    public var kind: OperationKind
    public var work: Double?
    public var order: Int
    public var state: OperationState = .initialized
    public var cancelled = false
    public var cancelledAt: Double?
    public var errors: [String] = []
    public var dependencies: [String]
    public var dependents: [String] = []
    public var conditions: [(name: String, status: ConditionStatus)]
    public var exclusivity: [String]
    /// Set while the operation waits for an exclusivity lock: (category, holder).
    public var waitingForLock: (category: String, holder: String)?
    public var enteredState: Double
    public var startedAt: Double?
    public var finishedAt: Double?
    public var readySince: Double?
    /// Higher-priority operations of its queue that started while this one was ready and waiting.
    public var overtakenBy: [String] = []
    public var lastTransition: (from: OperationState, to: OperationState, at: Double)?

    public var flags: OperationFlags { OperationFlags(state: state, cancelled: cancelled) }

    public static func == (a: Self, b: Self) -> Bool {
      a.name == b.name && a.state == b.state && a.cancelled == b.cancelled && a.errors == b.errors
        && a.enteredState == b.enteredState && a.dependencies == b.dependencies
        && a.conditions.map(\.status) == b.conditions.map(\.status)
    }
  }

  public private(set) var time: Double = 0
  public private(set) var lastSeq = 0
  public private(set) var queues: [String: QueueInfo] = [:]
  public private(set) var queueOrder: [String] = []
  public private(set) var operations: [String: OperationInfo] = [:]
  public private(set) var operationOrder: [String] = []
  public private(set) var lockHolders: [String: String] = [:]
  public private(set) var cycles: [[String]] = []

  public init() {}

  public func operation(_ name: String) -> OperationInfo? { operations[name] }
  public func queue(_ name: String) -> QueueInfo? { queues[name] }

  /// The cycle an operation belongs to, if any, while it is unfinished.
  public func cycle(containing name: String) -> [String]? {
    cycles.first { $0.contains(name) && $0.allSatisfy { operations[$0]?.state != .finished } }
  }

  public mutating func apply(_ event: Event) {
    time = event.time
    lastSeq = event.seq
    switch event.kind {
    case .queueAdded(let q, let max, let suspended, let qos):
      queues[q] = QueueInfo(name: q, maxConcurrent: max, suspended: suspended, qos: qos)
      queueOrder.append(q)
    case .queueSuspended(let q): queues[q]?.suspended = true
    case .queueResumed(let q): queues[q]?.suspended = false
    case .queueMaxConcurrent(let q, let v): queues[q]?.maxConcurrent = v
    case .operationAdded(let o, let q, let p, let qos, let kind, let deps, let conds, let work):
      let exclusive = conds.compactMap(Self.exclusivityCategory)
      let evaluated = conds.filter { Self.exclusivityCategory($0) == nil }
      operations[o] = OperationInfo(
        name: o, queue: q, priority: p, qos: qos, kind: kind, work: work,
        order: operationOrder.count,
        dependencies: deps, conditions: evaluated.map { ($0, .waiting) }, exclusivity: exclusive,
        enteredState: event.time)
      operationOrder.append(o)
      queues[q]?.members.append(o)
      for d in deps { operations[d]?.dependents.append(o) }
    case .dependencyAdded(let o, let d):
      operations[o]?.dependencies.append(d)
      operations[d]?.dependents.append(o)
    case .state(let o, let from, let to):
      applyState(o, from: from, to: to, at: event.time)
    case .conditionStarted(let o, let c):
      setCondition(o, c, .evaluating)
    case .conditionResult(let o, let c, let r, _):
      setCondition(o, c, r == .satisfied ? .satisfied : .failed)
    case .exclusivityWaiting(let o, let c, let h):
      operations[o]?.waitingForLock = (c, h)
    case .exclusivityAcquired(let o, let c):
      operations[o]?.waitingForLock = nil
      lockHolders[c] = o
    case .exclusivityReleased(_, let c):
      lockHolders[c] = nil
    case .cancelled(let o, let errors, _):
      operations[o]?.cancelled = true
      operations[o]?.cancelledAt = event.time
      operations[o]?.errors += errors
      operations[o]?.waitingForLock = nil
    case .didFinish(let o, let errors, _):
      operations[o]?.errors = errors
    case .cycleDetected(let ops):
      cycles.append(ops)
    case .cancelTooLate, .didStart, .didProduce, .willFinish, .completion, .command:
      break
    }
  }

  private mutating func setCondition(_ o: String, _ c: String, _ status: ConditionStatus) {
    guard let i = operations[o]?.conditions.firstIndex(where: { $0.name == c }) else { return }
    operations[o]?.conditions[i].status = status
  }

  private mutating func applyState(
    _ o: String, from: OperationState, to: OperationState, at t: Double
  ) {
    guard var op = operations[o] else { return }
    op.state = to
    op.enteredState = t
    op.lastTransition = (from, to, t)
    switch to {
    case .ready:
      op.readySince = t
    case .executing:
      op.startedAt = t
      op.readySince = nil
      queues[op.queue]?.executing.append(o)
      // Anyone of lower priority who was ready and waiting in this queue has just been overtaken.
      if let q = queues[op.queue] {
        for m in q.members where m != o {
          guard var other = operations[m], other.state == .ready, !other.cancelled,
            other.priority.value < op.priority.value
          else { continue }
          other.overtakenBy.append(o)
          operations[m] = other
        }
      }
    case .finished:
      op.finishedAt = t
      queues[op.queue]?.executing.removeAll { $0 == o }
      queues[op.queue]?.members.removeAll { $0 == o }
    default:
      break
    }
    operations[o] = op
  }

  static func exclusivityCategory(_ label: String) -> String? {
    guard label.hasPrefix("mutuallyExclusive("), label.hasSuffix(")") else { return nil }
    return String(label.dropFirst("mutuallyExclusive(".count).dropLast())
  }
}
