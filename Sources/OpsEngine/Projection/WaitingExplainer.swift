import OpsEvents

/// The "why" lines of an explained trace: after each instant, why each operation that instant touched
/// is waiting, when that changed. It folds the events into its own `Projection` (the one fold) and
/// asks `whyWaiting`. Explanations come once per instant, after everything that happened at that
/// time, so passing states (pending → ready within one instant) are not narrated.
public struct WaitingExplainer: Sendable {
  public struct Line: Sendable, Equatable {
    public let operation: String
    public let why: String
  }

  public private(set) var projection = Projection()
  private var lastWhy: [String: String] = [:]
  private var touched: [String] = []
  private var touchedSet = Set<String>()
  private var instant: Double?
  /// Queues an event of this instant concerned: their first ready operations are explained again.
  private var touchedQueues: [String] = []
  private var touchedQueueSet = Set<String>()
  /// Per queue, what its ready operations' lines depend on as a whole, and its first in line, when
  /// last explained: all of its ready operations are explained again only when the former changes.
  private var queueShape: [String: QueueShape] = [:]
  /// Operations waiting for each exclusivity category (told again when it is released).
  private var lockWaiters: [String: [String]] = [:]
  /// Operations whose condition waits for each operation it produced (their line names its state,
  /// so they are told again when it changes; it is not among their dependencies).
  private var conditionWaiters: [String: [String]] = [:]
  /// Cycles whose members were told the cycle is broken.
  private var brokenCyclesTold = Set<Int>()
  /// How many operations were explained (`whyWaiting` asked): the work, counted for the tests.
  public private(set) var explained = 0

  private struct QueueShape: Equatable {
    var suspended: Bool
    var maxConcurrent: Int?
    var atLimit: Bool
    var long: Bool
    var line: [Int]
  }

  public init() {}

  /// Lines to show before `event`: the explanations closing the previous instant.
  public mutating func lines(before event: Event) -> [Line] {
    let before = instant.map { $0 < event.time } ?? false ? closeInstant() : []
    instant = event.time
    let brokenBefore = projection.brokenCycleCount
    projection.apply(event)
    affect(by: event, cyclesBrokenBefore: brokenBefore)
    return before
  }

  /// The explanations for the last instant, when the run ends.
  public mutating func finish() -> [Line] { closeInstant() }

  private mutating func touch(_ name: String) {
    if touchedSet.insert(name).inserted { touched.append(name) }
  }

  private mutating func touchQueue(_ name: String) {
    if touchedQueueSet.insert(name).inserted { touchedQueues.append(name) }
  }

  private mutating func closeInstant() -> [Line] {
    // The first in line of each queue concerned, before and now, and all of its ready operations
    // when what they all depend on changed.
    var lines: [String: [Int]] = [:]
    for qn in touchedQueues {
      guard let q = projection.queue(named: qn) else { continue }
      let k = Projection.explainedInLine
      let shape = QueueShape(
        suspended: q.suspended, maxConcurrent: q.maxConcurrent, atLimit: q.isAtLimit,
        long: projection.readyCount(of: qn) > k, line: projection.readyLine(of: qn, first: k))
      let old = queueShape[qn]
      if let old {
        for i in old.line { touch(projection.operations[i].name) }
      }
      for i in shape.line { touch(projection.operations[i].name) }
      if old.map({
        ($0.suspended, $0.maxConcurrent, $0.atLimit, $0.long)
          != (shape.suspended, shape.maxConcurrent, shape.atLimit, shape.long)
      }) ?? true {
        for i in projection.readyMembers(of: qn) { touch(projection.operations[i].name) }
      }
      queueShape[qn] = shape
      lines[qn] = shape.line
    }
    touchedQueues.removeAll(keepingCapacity: true)
    touchedQueueSet.removeAll(keepingCapacity: true)
    var out: [Line] = []
    for name in touched {
      explained += 1
      let why = projection.whyWaiting(name, lines: lines)
      guard why != lastWhy[name] else { continue }
      lastWhy[name] = why
      if let why { out.append(Line(operation: name, why: why)) }
    }
    touched.removeAll(keepingCapacity: true)
    touchedSet.removeAll(keepingCapacity: true)
    return out
  }

  /// The operation itself, its dependents and those whose condition waits for it; its queue (whose first in line are explained at the
  /// end of the instant); on a suspension or a resume every member of the queue (a pending
  /// operation's evaluation waits for it); on a lock's release those waiting for it; on a cycle's
  /// break its members. Each is bounded by what the event itself changed, so explaining stays linear
  /// in the events.
  private mutating func affect(by event: Event, cyclesBrokenBefore: Int) {
    if let o = event.kind.operation, let op = projection.operation(named: o) {
      touch(o)
      for d in op.dependents { touch(d) }
      touchQueue(op.queue)
      if !conditionWaiters.isEmpty, let waiters = conditionWaiters[o] {
        for w in waiters { touch(w) }
        if op.state == .finished { conditionWaiters[o] = nil }
      }
    }
    switch event.kind {
    case .conditionWaiting(let o, _, let d):
      conditionWaiters[d, default: []].append(o)
    case .queueSuspended(let q), .queueResumed(let q):
      for m in projection.members(of: q) { touch(m.name) }
    case .exclusivityWaiting(let o, let category, _):
      lockWaiters[category, default: []].append(o)
    case .exclusivityReleased(_, let category):
      let waiters = lockWaiters[category] ?? []
      var still: [String] = []
      for w in waiters where projection.operation(named: w)?.waitingForLock?.category == category {
        touch(w)
        still.append(w)
      }
      lockWaiters[category] = still
    case .queueAdded, .queueMaxConcurrent, .operationAdded, .dependencyAdded, .state,
      .conditionWaiting, .conditionStarted, .conditionResult, .exclusivityAcquired, .cancelled,
      .cancelTooLate, .didStart, .didProduce, .willFinish, .didFinish, .completion, .cycleDetected,
      .command, .warning, .refused:
      break
    }
    if let q = event.kind.queue { touchQueue(q) }
    if projection.brokenCycleCount != cyclesBrokenBefore {
      for c in projection.brokenCycleIndices where brokenCyclesTold.insert(c).inserted {
        for m in projection.cycles[c] { touch(m) }
      }
    }
  }
}
