import OpsEvents

/// A fact a teaching moment's caption states, as data, so the engine can check it. Each claim is
/// about the run at the moment it is reached: a queue, an operation, an exclusivity lock, or what
/// starts at that instant. Scenarios write them under a moment's `expect:` (Scenarios/README.md).
public enum MomentClaim: Sendable, Equatable {
  case queueSuspended(queue: String, Bool)
  /// nil: no limit (Foundation's default).
  case queueLimit(queue: String, Int?)
  /// Exactly these operations of the queue are executing.
  case queueExecuting(queue: String, [String])
  /// Exactly these operations of the queue are ready and not started.
  case queueReady(queue: String, [String])
  case operationState(operation: String, OperationState)
  case operationCancelled(operation: String, Bool)
  /// It finishes with an error in the run (willFinish carries it), before or after the moment.
  case operationFailed(operation: String, Bool)
  /// When its cancelled flag was set (nil: never), before or after the moment.
  case operationCancelledAt(operation: String, Double?)
  /// When it enters ready in the run (nil: never), before or after the moment.
  case operationReadyAt(operation: String, Double?)
  /// When it enters executing in the run (nil: never), before or after the moment.
  case operationStartsAt(operation: String, Double?)
  /// When it enters finished in the run (nil: never), before or after the moment.
  case operationFinishesAt(operation: String, Double?)
  /// nil: nobody holds the category's lock.
  case lockHolder(category: String, String?)
  /// Exactly these operations wait for the category's lock.
  case lockWaiting(category: String, [String])
  /// Exactly these operations (of `queue`, or of every queue) enter executing at the moment's
  /// instant: before the moment or after it, at the same engine time. Foundation orders nothing
  /// between queues at one instant, so a lesson about "what starts now" names them all.
  case starts(queue: String?, [String])

  /// The claim in words, as the board lists it beside the caption.
  public var text: String {
    switch self {
    case .queueSuspended(let q, let s): s ? "\(q) is suspended" : "\(q) is not suspended"
    case .queueLimit(let q, let n): "\(q)'s limit is \(limitText(n))"
    case .queueExecuting(let q, let ops): "executing on \(q): \(Self.names(ops))"
    case .queueReady(let q, let ops): "ready and waiting on \(q): \(Self.names(ops))"
    case .operationState(let o, let s): "\(o) is \(s.rawValue)"
    case .operationCancelled(let o, let c): c ? "\(o) is cancelled" : "\(o) is not cancelled"
    case .operationFailed(let o, let f): f ? "\(o) failed" : "\(o) did not fail"
    case .operationCancelledAt(let o, let t):
      t.map { "\(o) is cancelled at \(secondsText($0, decimals: 1))s" } ?? "\(o) is never cancelled"
    case .operationReadyAt(let o, let t):
      t.map { "\(o) becomes ready at \(secondsText($0, decimals: 1))s" }
        ?? "\(o) never becomes ready"
    case .operationStartsAt(let o, let t):
      t.map { "\(o) starts executing at \(secondsText($0, decimals: 1))s" }
        ?? "\(o) never starts executing"
    case .operationFinishesAt(let o, let t):
      t.map { "\(o) finishes at \(secondsText($0, decimals: 1))s" } ?? "\(o) never finishes"
    case .lockHolder(let c, let h):
      h.map { "\($0) holds the \(c) lock" } ?? "nobody holds the \(c) lock"
    case .lockWaiting(let c, let ops): "waiting for the \(c) lock: \(Self.names(ops))"
    case .starts(let q, let ops):
      "starting at this instant\(q.map { " on \($0)" } ?? ""): \(Self.names(ops))"
    }
  }

  /// The operations and queues it names, for validation.
  public var operationNames: [String] {
    switch self {
    case .queueExecuting(_, let ops), .queueReady(_, let ops), .lockWaiting(_, let ops),
      .starts(_, let ops):
      ops
    case .operationState(let o, _), .operationCancelled(let o, _), .operationFailed(let o, _),
      .operationCancelledAt(let o, _), .operationReadyAt(let o, _), .operationStartsAt(let o, _),
      .operationFinishesAt(let o, _):
      [o]
    case .lockHolder(_, let h): h.map { [$0] } ?? []
    case .queueSuspended, .queueLimit: []
    }
  }

  public var queueName: String? {
    switch self {
    case .queueSuspended(let q, _), .queueLimit(let q, _), .queueExecuting(let q, _),
      .queueReady(let q, _):
      q
    case .starts(let q, _): q
    default: nil
    }
  }

  /// Nil when the claim holds in `projection` (the run as it is at the moment) and `run` (its
  /// transitions before and after); otherwise what was found instead.
  public func failure(in projection: Projection, run: MomentTimeline) -> String? {
    func differs(_ expected: [String], _ found: [String]) -> String? {
      Set(expected) == Set(found) ? nil : "found \(Self.names(found))"
    }
    func on(_ q: String, _ state: OperationState) -> [String] {
      projection.operations.filter { $0.queue == q && $0.state == state }.map(\.name)
    }
    switch self {
    case .queueSuspended(let q, let s):
      guard let info = projection.queue(named: q) else { return "\(q) is not on the board yet" }
      return info.suspended == s ? nil : info.suspended ? "it is suspended" : "it is running"
    case .queueLimit(let q, let n):
      guard let info = projection.queue(named: q) else { return "\(q) is not on the board yet" }
      return info.maxConcurrent == n ? nil : "its limit is \(limitText(info.maxConcurrent))"
    case .queueExecuting(let q, let ops): return differs(ops, on(q, .executing))
    case .queueReady(let q, let ops): return differs(ops, on(q, .ready))
    case .operationState(let o, let s):
      guard let info = projection.operation(named: o) else { return "\(o) is not on the board yet" }
      return info.state == s ? nil : "it is \(info.state.rawValue)"
    case .operationCancelled(let o, let c):
      guard let info = projection.operation(named: o) else { return "\(o) is not on the board yet" }
      return info.cancelled == c ? nil : info.cancelled ? "it is cancelled" : "it is not cancelled"
    case .operationFailed(let o, let f):
      let failed = run.failures.contains(o)
      return failed == f ? nil : failed ? "it fails" : "it does not fail in this run"
    case .lockHolder(let c, let h):
      let holder = projection.lockHolders[c]
      return holder == h ? nil : holder.map { "\($0) holds it" } ?? "nobody holds it"
    case .lockWaiting(let c, let ops):
      return differs(
        ops, projection.operations.filter { $0.waitingForLock?.category == c }.map(\.name))
    case .operationCancelledAt(let o, let t):
      return when(run.cancelTime(of: o), expected: t, "is cancelled")
    case .operationReadyAt(let o, let t):
      return when(run.firstTime(of: o, entering: .ready), expected: t, "becomes ready")
    case .operationStartsAt(let o, let t):
      return when(run.firstTime(of: o, entering: .executing), expected: t, "starts")
    case .operationFinishesAt(let o, let t):
      return when(run.firstTime(of: o, entering: .finished), expected: t, "finishes")
    case .starts(let q, let ops):
      let now = run.entering(.executing, at: projection.now).filter { q == nil || $0.queue == q }
      return differs(ops, now.map(\.operation))
    }
  }

  private func when(_ found: Double?, expected: Double?, _ what: String) -> String? {
    switch (found, expected) {
    case (nil, nil): return nil
    case (let f?, let e?) where abs(f - e) < 1e-9: return nil
    case (let f?, _): return "it \(what) at \(secondsText(f, decimals: 3))s"
    case (nil, _): return "it never \(what) in this run"
    }
  }

  static func names(_ ops: [String]) -> String {
    ops.isEmpty ? "none" : ops.joined(separator: ", ")
  }
}

/// The state transitions of a run, before and after a moment: what claims about times and
/// instants are checked against. Built from every event of a run (`MomentRun`), or on the board from
/// the events shown and those a look-ahead copy will publish.
public struct MomentTimeline: Sendable {
  public struct Entry: Sendable, Equatable {
    public let time: Double
    public let operation: String
    public let queue: String
    public let to: OperationState
  }

  public private(set) var entries: [Entry] = []

  public init() {}

  /// The operations that finish with an error.
  public private(set) var failures: Set<String> = []
  /// When each operation's cancelled flag was set.
  public private(set) var cancels: [String: Double] = [:]

  /// Adds the state and cancel events of `events`; `queueOf` names an operation's queue.
  public mutating func add(_ events: some Sequence<Event>, queueOf: (String) -> String?) {
    for e in events {
      switch e.kind {
      case .state(let op, _, let to, _):
        entries.append(Entry(time: e.time, operation: op, queue: queueOf(op) ?? "", to: to))
      case .cancelled(let op, _, _):
        if cancels[op] == nil { cancels[op] = e.time }
      case .willFinish(let op, let errors, _):
        if !errors.isEmpty { failures.insert(op) }
      default: break
      }
    }
  }

  func cancelTime(of operation: String) -> Double? { cancels[operation] }

  func firstTime(of operation: String, entering state: OperationState) -> Double? {
    entries.first { $0.operation == operation && $0.to == state }?.time
  }

  func entering(_ state: OperationState, at time: Double) -> [Entry] {
    entries.filter { $0.to == state && abs($0.time - time) < 1e-9 }
  }
}
