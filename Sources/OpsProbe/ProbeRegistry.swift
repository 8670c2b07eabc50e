import Foundation
import OpsEngine
import OpsInput
import Synchronization

/// The queues and unfinished operations a probe watches. Additions, suspension and limit changes are
/// reported exactly (the observed queue overrides them); operation states are sampled, because
/// swift-corelibs-foundation has no KVO and the operations are the program's own objects.
final class ProbeRegistry: Sendable {
  struct Watched: @unchecked Sendable {
    // Operation is thread-safe for the flags read here.
    let operation: Operation
    let name: String
    let queue: String
    let dependencies: [String]
    var state: OperationState
    var cancelled: Bool
  }
  private struct Queues: @unchecked Sendable {
    // Weak boxes: the registry must not keep a program's queue alive.
    var byName: [String: WeakQueue] = [:]
  }
  private final class WeakQueue: @unchecked Sendable {
    weak var queue: ObservedOperationQueue?
    init(_ q: ObservedOperationQueue) { queue = q }
  }
  private let watched = Mutex<[Watched]>([])
  private let queues = Mutex(Queues())
  private let counter = Mutex(0)
  /// Every operation name reported, so a cancel of one that finished is told from an unknown name.
  private let reported = Mutex<Set<String>>([])
  /// Names a stream may carry once only: a program may give two operations (or queues) the same
  /// name, and the viewer refuses a stream that adds one twice, so the second is reported as
  /// `name #2`. `unfinished` maps each watched operation to its reported name, for its dependents.
  private struct Names: @unchecked Sendable {
    var queues = Set<String>()
    var nextSuffix: [String: Int] = [:]
    var unfinished: [ObjectIdentifier: String] = [:]
  }
  private let names = Mutex(Names())

  /// A name for a new queue, `wanted` (made acceptable) unless a queue has it already.
  func claimQueueName(_ wanted: String) -> String {
    let base = TextPolicy.acceptableName(wanted, fallback: "queue")
    return names.withLock { n in
      var name = base
      while n.queues.contains(name) { name = Self.next(base, &n.nextSuffix) }
      n.queues.insert(name)
      return name
    }
  }

  /// The name `op` is reported with: its own (made acceptable), unless an operation was reported
  /// with that name already.
  func claimName(for op: Operation) -> String {
    let base = TextPolicy.acceptableName(op.name ?? "unnamed")
    // Claimed under the lock of the names reported, so two threads cannot take the same one.
    return reported.withLock { taken in
      names.withLock { n in
        var name = base
        while taken.contains(name) { name = Self.next(base, &n.nextSuffix) }
        taken.insert(name)
        n.unfinished[ObjectIdentifier(op)] = name
        return name
      }
    }
  }

  /// The name a dependency was reported with (while it is watched), else its own made acceptable.
  func reportedName(of op: Operation) -> String {
    names.withLock { $0.unfinished[ObjectIdentifier(op)] }
      ?? TextPolicy.acceptableName(op.name ?? "unnamed")
  }

  /// `base #2`, `base #3`…: cut so the suffix fits the length bound.
  private static func next(_ base: String, _ suffixes: inout [String: Int]) -> String {
    let n = suffixes[base, default: 1] + 1
    suffixes[base] = n
    let suffix = " #\(n)"
    var head = base
    while head.utf8.count + suffix.utf8.count > TextPolicy.maxNameBytes { head.removeLast() }
    return head + suffix
  }

  func generatedName(_ kind: String) -> String {
    counter.withLock {
      $0 += 1
      return "\(kind) \($0)"
    }
  }

  func add(queue: ObservedOperationQueue, name: String) {
    queues.withLock { $0.byName[name] = WeakQueue(queue) }
  }

  func watch(_ w: Watched) {
    watched.withLock { $0.append(w) }
    reported.withLock { _ = $0.insert(w.name) }
  }

  /// Reads each watched operation's flags and reports the states it went through since the last
  /// sample, every step of the path, so the viewer's fold sees the same transitions as for a scenario.
  func sample(_ probe: Probe) {
    // The events are made under the lock and published after it: encoding them there would hold
    // up the program's `addOperation` (which takes the lock to watch the new operation).
    var found: [EventKind] = []
    defer { for kind in found { probe.emit(kind) } }
    watched.withLock { list in
      var executing: [String: Int] = [:]
      for w in list where w.state == .executing { executing[w.queue, default: 0] += 1 }
      for i in list.indices {
        let op = list[i].operation
        let now: OperationState =
          op.isFinished ? .finished : op.isExecuting ? .executing : op.isReady ? .ready : .pending
        if op.isCancelled && !list[i].cancelled {
          list[i].cancelled = true
          found.append(.cancelled(operation: list[i].name, errors: [], cause: .command))
        }
        while list[i].state < now {
          let from = list[i].state
          let to = Self.next(after: from)
          let cause: StateCause
          switch to {
          case .ready:
            cause =
              list[i].cancelled
              ? .cancelled(.command)
              : list[i].dependencies.last.map {
                .dependencyFinished($0, of: list[i].dependencies.count)
              } ?? .noDependencies
          case .executing:
            executing[list[i].queue, default: 0] += 1
            cause = .started(
              queue: list[i].queue, slot: executing[list[i].queue]!,
              limit: queueLimit(list[i].queue), after: nil)
          case .finishing: cause = list[i].cancelled ? .skippedMain : .workReturned
          default: cause = .observersNotified
          }
          found.append(.state(operation: list[i].name, from: from, to: to, cause: cause))
          list[i].state = to
        }
      }
      let finished = list.filter { $0.state == .finished }.map { ObjectIdentifier($0.operation) }
      if !finished.isEmpty {
        names.withLock { n in for id in finished { n.unfinished[id] = nil } }
      }
      list.removeAll { $0.state == .finished }
    }
  }

  private static func next(after s: OperationState) -> OperationState {
    switch s {
    case .initialized: .pending
    case .pending, .evaluatingConditions: .ready
    case .ready: .executing
    case .executing: .finishing
    default: .finished
    }
  }

  private func queueLimit(_ name: String) -> Int? {
    let n = queues.withLock { $0.byName[name]?.queue?.maxConcurrentOperationCount } ?? -1
    return n < 0 ? nil : n
  }

  /// A steering command from the viewer, applied to the program's own objects. Returns what to
  /// report when it could not be: a cancel too late, or a name the probe never reported.
  func apply(_ command: Command) -> EventKind? {
    func queue(_ name: String) -> ObservedOperationQueue? {
      queues.withLock { $0.byName[name]?.queue }
    }
    if let q = command.queueName, queue(q) == nil {
      return .refused(operation: q, reason: "the program has no observed queue of that name")
    }
    switch command {
    case .suspend(let q): queue(q)?.isSuspended = true
    case .resume(let q): queue(q)?.isSuspended = false
    case .setMaxConcurrent(let q, let v): queue(q)?.maxConcurrentOperationCount = v ?? -1
    case .cancelAll(let q): queue(q)?.cancelAllOperations()
    case .cancel(let name):
      if let op = watched.withLock({ list in list.first { $0.name == name } })?.operation {
        op.cancel()
      } else if reported.withLock({ $0.contains(name) }) {
        return .cancelTooLate(operation: name)
      } else {
        return .refused(
          operation: name, reason: "the program has no observed operation of that name")
      }
    }
    return nil
  }
}

extension Command {
  /// The queue a queue command names.
  fileprivate var queueName: String? {
    switch self {
    case .cancelAll(let q), .suspend(let q), .resume(let q), .setMaxConcurrent(let q, _): q
    case .cancel: nil
    }
  }
}
