/// What went wrong, tokio-console style: lints detected from the event stream, each with a sentence
/// that teaches. Feed every event (after the replica has applied it) and call `check(at:)` as time
/// passes; each warning is raised once per subject.
public struct WarningDetector: Sendable {
  public enum Kind: String, Sendable, CaseIterable, Codable {
    case dependencyCycle, neverFinishes, ignoresCancellation, cancelledTooLate,
      ranAfterFailedDependency
    case starved, suspendedQueueIdle, conditionFailed
  }

  public struct Warning: Sendable, Equatable {
    public var kind: Kind
    /// The operation or queue it is about.
    public var subject: String
    public var time: Double
    public var message: String
  }

  public private(set) var warnings: [Warning] = []
  private var raised = Set<String>()
  /// When each suspended queue started holding work with nothing executing anywhere.
  private var idleSince: [String: Double] = [:]
  /// Execution times of finished operations, sorted: what "far longer than its peers" compares with.
  private var durations: [Double] = []

  /// Overtaken this many times while ready counts as starved.
  public static let starvationThreshold = 4
  /// Seconds a suspended queue may hold work while nothing runs before it is flagged.
  public static let idleGrace = 5.0
  /// Seconds an operation may keep executing after being cancelled before it is flagged.
  public static let cancelGrace = 1.0

  public init() {}

  public func warnings(for subject: String) -> [Warning] {
    warnings.filter { $0.subject == subject }
  }

  private mutating func raise(_ kind: Kind, _ subject: String, _ time: Double, _ message: String) {
    guard raised.insert("\(kind.rawValue)|\(subject)").inserted else { return }
    warnings.append(Warning(kind: kind, subject: subject, time: time, message: message))
  }

  /// Event-driven lints. `replica` must already include `event`.
  public mutating func observe(_ event: Event, in replica: EngineReplica) {
    let t = event.time
    switch event.kind {
    case .cycleDetected(let ops):
      for o in ops {
        raise(
          .dependencyCycle, o, t,
          "\(o) is in a dependency cycle (\((ops + [ops[0]]).joined(separator: " → "))): none of them can ever "
            + "become ready. OperationQueue never reports this; the operations simply never run.")
      }
    case .cancelTooLate(let o):
      raise(
        .cancelledTooLate, o, t,
        "\(o) was cancelled after it had finished: cancel() on a finished operation does nothing.")
    case .conditionResult(let o, let c, .failed, let error):
      raise(
        .conditionFailed, o, t,
        "condition \(c) of \(o) failed\(error.map { " (\($0))" } ?? ""): the operation is cancelled and never executes."
      )
    case .state(let o, .executing, .finishing):
      // Caught at the finish too, so a trace with no events in between still reports it.
      if let op = replica.operation(o), let c = op.cancelledAt, let s = op.startedAt, s <= c,
        t - c > Self.cancelGrace
      {
        raise(.ignoresCancellation, o, t, ignoredMessage(o, cancelledAt: c))
      }
    case .state(let o, _, .finished):
      if let op = replica.operation(o), let started = op.startedAt {
        let d = t - started
        let i = durations.firstIndex { $0 > d } ?? durations.count
        durations.insert(d, at: i)
      }
    case .state(let o, _, .executing):
      // Only a start can overtake: look at the waiting members of that queue.
      guard let q = replica.operation(o).flatMap({ replica.queue($0.queue) }) else { break }
      for m in q.members {
        guard let op = replica.operation(m), op.state == .ready, !op.cancelled,
          op.overtakenBy.count >= Self.starvationThreshold
        else { continue }
        raise(
          .starved, m, t,
          "\(m) (\(op.priority.rawValue)) has been ready since \(fixed3(op.readySince ?? t))s while "
            + "\(op.overtakenBy.count) higher-priority operations started before it: a steady stream of higher "
            + "priorities can starve it.")
      }
    case .didStart(let o):
      guard let op = replica.operation(o) else { break }
      for d in op.dependencies {
        guard let dep = replica.operation(d), dep.cancelled || !dep.errors.isEmpty else { continue }
        raise(
          .ranAfterFailedDependency, o, t,
          "\(o) ran although its dependency \(d) \(dep.cancelled ? "was cancelled" : "failed"): a finished dependency "
            + "counts whatever its outcome. Add a noFailedDependencies / noCancelledDependencies condition, or check."
        )
        break
      }
    default:
      break
    }
    check(at: t, in: replica)
  }

  /// Time-driven lints; call on every event and whenever the clock moves without events.
  public mutating func check(at now: Double, in replica: EngineReplica) {
    let executingAnywhere = replica.queues.values.contains { !$0.executing.isEmpty }
    for name in replica.queueOrder {
      guard let q = replica.queue(name) else { continue }
      let holding = q.suspended && !q.members.isEmpty
      if holding && !executingAnywhere {
        let since = idleSince[name] ?? now
        idleSince[name] = since
        if now - since >= Self.idleGrace {
          raise(
            .suspendedQueueIdle, name, now,
            "queue \(name) is suspended with \(q.members.count) operation\(q.members.count == 1 ? "" : "s") waiting "
              + "and nothing else is running: nothing will happen until it is resumed.")
        }
      } else {
        idleSince[name] = nil
      }
    }
    let peerMedian = durations.isEmpty ? nil : durations[durations.count / 2]
    for name in replica.queueOrder {
      for o in replica.queue(name)?.executing ?? [] {
        guard let op = replica.operation(o), op.state == .executing, let started = op.startedAt
        else { continue }
        let running = now - started
        let expected = max(op.work ?? peerMedian ?? 1, peerMedian ?? 0, 1)
        if running > 3 * expected && running >= 5 {
          raise(
            .neverFinishes, o, now,
            "\(o) has been executing for \(fixed3(running))s, far longer than expected (\(fixed3(expected))s). An "
              + "asynchronous operation that never calls finish holds its queue slot forever.")
        }
        if let c = op.cancelledAt, now - c > Self.cancelGrace {
          raise(.ignoresCancellation, o, now, ignoredMessage(o, cancelledAt: c))
        }
      }
    }
  }

  private func ignoredMessage(_ o: String, cancelledAt c: Double) -> String {
    "\(o) was cancelled at \(fixed3(c))s and kept executing: its work never checks isCancelled, so cancel() "
      + "only set a flag."
  }
}
