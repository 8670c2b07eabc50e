import Foundation
import OpsEngine
import OpsEvents
import Synchronization

/// The queues and unfinished operations a probe watches. Additions, suspension and limit changes are
/// reported exactly (the observed queue overrides them); operation states are sampled, because
/// swift-corelibs-foundation has no KVO and the operations are the program's own objects. A sampled
/// transition says so (cause `sampled`): the probe saw the new state, not why it changed, nor the
/// slot a start took.
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
    /// How many queues were given each name: the second `inner` is reported as `inner #2`.
    var given: [String: Int] = [:]
  }
  private final class WeakQueue: @unchecked Sendable {
    weak var queue: ObservedOperationQueue?
    init(_ q: ObservedOperationQueue) { queue = q }
  }
  private let watched = Mutex<[Watched]>([])
  private let queues = Mutex(Queues())
  private let counter = Mutex(0)
  /// How many operations were reported under each name, so a cancel of one that finished is told
  /// from an unknown name, and a second operation named alike is reported as `name #2`.
  private let reported = Mutex<[String: Int]>([:])
  /// Watched operations' reported names (the watched list keeps each alive, so the key is its).
  private let names = Mutex<[ObjectIdentifier: String]>([:])
  /// One sample at a time (the sampler's and `stop`'s last one), each published whole.
  private let sampling = Mutex(())

  func generatedName(_ kind: String) -> String {
    counter.withLock {
      $0 += 1
      return "\(kind) \($0)"
    }
  }

  /// Registers a queue; returns the name it is reported under: its own, or `name #N` when another
  /// queue was given the same name (distinct queues are distinct rows, and a command names one).
  func add(queue: ObservedOperationQueue, name: String) -> String {
    queues.withLock { q in
      let n = (q.given[name] ?? 0) + 1
      q.given[name] = n
      var unique = n == 1 ? name : "\(name) #\(n)"
      while q.byName[unique] != nil {
        q.given[name, default: 0] += 1
        unique = "\(name) #\(q.given[name]!)"
      }
      q.byName[unique] = WeakQueue(queue)
      return unique
    }
  }

  /// The name an operation is reported under: its own, or `name #N` for the Nth of that name.
  func operationName(_ name: String) -> String {
    reported.withLock { r in
      let n = (r[name] ?? 0) + 1
      r[name] = n
      var unique = n == 1 ? name : "\(name) #\(n)"
      while n > 1, r[unique] != nil {
        r[name, default: 0] += 1
        unique = "\(name) #\(r[name]!)"
      }
      if unique != name { r[unique] = 1 }
      return unique
    }
  }

  func watch(_ w: Watched) {
    watched.withLock { $0.append(w) }
    names.withLock { $0[ObjectIdentifier(w.operation)] = w.name }
  }

  /// The name `op` was reported under while it is watched (a dependency named like another
  /// operation is `name #2`), else its own name.
  func reportedName(of op: Operation) -> String {
    names.withLock { $0[ObjectIdentifier(op)] } ?? ControlCharacters.printable(op.name ?? "unnamed")
  }

  /// Reads each watched operation's flags and reports the states it went through since the last
  /// sample, every step of the path, so the viewer's fold sees the same transitions as for a
  /// scenario. Within one sample, operations leaving `executing` are reported before any start, so
  /// the board never counts more executing operations than the queue's limit allows.
  func sample(_ probe: Probe) {
    sampling.withLock { _ in
      // The events are made under the lock and published after it: encoding them there would hold
      // up the program's `addOperation` (which takes the lock to watch the new operation).
      var found: [EventKind] = []
      watched.withLock { list in
        var now: [OperationState] = []
        now.reserveCapacity(list.count)
        for w in list {
          let op = w.operation
          now.append(
            op.isFinished ? .finished : op.isExecuting ? .executing : op.isReady ? .ready : .pending
          )
        }
        for i in list.indices where list[i].operation.isCancelled && !list[i].cancelled {
          list[i].cancelled = true
          found.append(.cancelled(operation: list[i].name, errors: [], cause: .command))
        }
        // Ends first (were executing, or pass through executing to an end), then the rest.
        func rank(_ i: Int) -> Int {
          if list[i].state == .executing { return 0 }
          if now[i] >= .finishing { return 1 }
          return 2
        }
        let order = list.indices.filter { list[$0].state < now[$0] }.sorted {
          (rank($0), $0) < (rank($1), $1)
        }
        for i in order {
          while list[i].state < now[i] {
            let from = list[i].state
            let to = Self.next(after: from)
            found.append(.state(operation: list[i].name, from: from, to: to, cause: .sampled))
            list[i].state = to
          }
        }
        let gone = list.filter { $0.state == .finished }.map { ObjectIdentifier($0.operation) }
        if !gone.isEmpty { names.withLock { n in for id in gone { n[id] = nil } } }
        list.removeAll { $0.state == .finished }
      }
      for kind in found { probe.emit(kind) }
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

  /// A steering command from the viewer (validated already), applied to the program's own objects.
  /// Returns what to report besides the command: a cancel too late, a name the probe never
  /// reported, the named operations of a confirmed `cancelAll` that had finished.
  func apply(_ request: ProbeWire.Request) -> [EventKind] {
    let command = request.command
    func queue(_ name: String) -> ObservedOperationQueue? {
      queues.withLock { $0.byName[name]?.queue }
    }
    if let q = command.queueName, queue(q) == nil {
      return [.refused(operation: q, reason: "the program has no observed queue of that name")]
    }
    switch command {
    case .suspend(let q): queue(q)?.isSuspended = true
    case .resume(let q): queue(q)?.isSuspended = false
    case .setMaxConcurrent(let q, let v): queue(q)?.maxConcurrentOperationCount = v ?? -1
    case .cancelAll(let q):
      guard let names = request.operations else {
        queue(q)?.cancelAllOperations()
        return []
      }
      // A confirmed `C`: only the operations the viewer named, those still unfinished.
      return names.compactMap { cancel($0, in: q) }
    case .cancel(let name):
      return cancel(name, in: nil).map { [$0] } ?? []
    }
    return []
  }

  /// Cancels the operation reported as `name` (in `queue`, if given) unless it has finished.
  private func cancel(_ name: String, in queue: String?) -> EventKind? {
    let found = watched.withLock { list in
      list.first { $0.name == name && (queue == nil || $0.queue == queue) }
    }
    if let op = found?.operation, !op.isFinished {
      op.cancel()
      return nil
    }
    if found != nil || reported.withLock({ $0[name] != nil }) {
      return .cancelTooLate(operation: name)
    }
    return .refused(operation: name, reason: "the program has no observed operation of that name")
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
