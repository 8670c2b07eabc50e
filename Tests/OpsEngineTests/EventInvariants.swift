import OpsEngine
import OpsEvents

/// Checks an event stream against the engine's invariants, from the events alone (as a board or trace
/// reader would see them). Returns readable violations; empty means the stream is sound.
struct EventInvariants {
  /// Mutual-exclusivity categories per operation, from the specs (not from the engine's own lock events).
  var exclusivity: [String: [String]] = [:]
  /// Every enqueued operation must have finished by the end of the stream.
  var requireAllFinished = true

  func violations(in events: [Event]) -> [String] {
    var problems: [String] = []
    func fail(_ e: Event, _ message: String) {
      problems.append("seq \(e.seq) \(e.kind.type): \(message)")
    }

    var limit: [String: Int?] = [:]
    var suspended: [String: Bool] = [:]
    var executing: [String: Int] = [:]
    var queueOf: [String: String] = [:]
    var dependencies: [String: Set<String>] = [:]
    var state: [String: OperationState] = [:]
    var began = Set<String>()
    var cancelled = Set<String>()
    var finished = Set<String>()
    var finishes: [String: Int] = [:]
    /// 0 nothing yet, 1 didStart, 2 willFinish, 3 didFinish.
    var phase: [String: Int] = [:]
    var holder: [String: String] = [:]
    /// Operations with conditions or exclusivity categories.
    var conditioned = Set<String>()
    var reclaimers = Set<String>()
    /// Reclaimers started by their queue and waiting for their lock: the slot is taken at the request
    /// (X10), with the lock's holder they wait for.
    var slotHolders: [String: String] = [:]

    func takeSlot(_ e: Event, _ o: String, on q: String) {
      if let cap = limit[q] ?? nil, executing[q, default: 0] >= cap {
        fail(e, "\(o) started with \(executing[q, default: 0]) executing on \(q), limit \(cap)")
      }
      executing[q, default: 0] += 1
      began.insert(o)
    }

    for (i, e) in events.enumerated() {
      if e.seq != i + 1 { fail(e, "expected seq \(i + 1)") }
      if i > 0 && e.time < events[i - 1].time { fail(e, "time went backwards") }
      switch e.kind {
      case .queueAdded(let q, let m, let s, _):
        limit[q] = m
        suspended[q] = s
        executing[q] = 0
      case .queueSuspended(let q): suspended[q] = true
      case .queueResumed(let q): suspended[q] = false
      case .queueMaxConcurrent(let q, let v): limit[q] = v
      case .operationAdded(let o, let q, _, _, _, let deps, let conds, _, _):
        if queueOf[o] != nil { fail(e, "\(o) added twice") }
        queueOf[o] = q
        dependencies[o, default: []].formUnion(deps)
        if !conds.isEmpty || !exclusivity[o, default: []].isEmpty { conditioned.insert(o) }
      case .exclusivityAcquired(let o, let cat):
        // ProcedureKit asks for the lock within condition evaluation, which ends once it is granted.
        // A lock given back when its queue was suspended is asked for again once the queue starts
        // the operation (X10): then it is ready, holding a slot.
        if state[o] != .evaluatingConditions && !(state[o] == .ready && reclaimers.contains(o)) {
          fail(e, "\(o) gets \(cat) while \(state[o] ?? .initialized), not evaluatingConditions")
        }
      case .exclusivityReleased(let o, _):
        if state[o] == .ready || state[o] == .evaluatingConditions { reclaimers.insert(o) }
      case .exclusivityWaiting(let o, _, let h):
        // A reclaimer asks again once its queue has started it: it takes its slot now.
        guard state[o] == .ready, reclaimers.contains(o), let q = queueOf[o] else { break }
        if !began.contains(o) { takeSlot(e, o, on: q) }
        slotHolders[o] = h
      case .dependencyAdded(let o, let d): dependencies[o, default: []].insert(d)
      case .cancelled(let o, _, _): cancelled.insert(o)
      case .cycleDetected(let ops): fail(e, "cycle \(ops) in an acyclic graph")
      case .state(let o, let from, let to, _):
        let current = state[o] ?? .initialized
        if from != current { fail(e, "\(o) moves from \(from) but is \(current)") }
        if to <= from { fail(e, "\(o) moves backwards \(from) → \(to)") }
        // Conditions, exclusivity included, are evaluated unless it was cancelled first.
        if from == .pending && to == .ready && conditioned.contains(o) && !cancelled.contains(o) {
          fail(e, "\(o) skips evaluatingConditions although it has conditions or exclusivity")
        }
        state[o] = to
        // An operation takes a slot when its queue starts it: to execute, or (cancelled) to finish at once.
        guard to == .executing || (from == .ready && to == .finishing), let q = queueOf[o] else {
          break
        }
        // One that asked again for its lock was started before, and took its slot then.
        if slotHolders.removeValue(forKey: o) == nil {
          if suspended[q] == true && !reclaimers.contains(o) {
            fail(e, "\(o) started on suspended \(q)")
          }
          takeSlot(e, o, on: q)
        }
        guard to == .executing else { break }
        if cancelled.contains(o) {
          fail(e, "\(o) executes although it was cancelled before starting")
        }
        for d in dependencies[o, default: []] where !finished.contains(d) {
          fail(e, "\(o) executes before its dependency \(d) finished")
        }
        for cat in exclusivity[o, default: []] {
          if let h = holder[cat] { fail(e, "\(o) executes while \(h) holds \(cat)") }
          holder[cat] = o
        }
      case .didStart(let o):
        if phase[o, default: 0] != 0 { fail(e, "\(o) didStart out of order") }
        if state[o] != .executing { fail(e, "\(o) didStart while \(state[o] ?? .initialized)") }
        phase[o] = 1
      case .willFinish(let o, _, _):
        if phase[o, default: 0] > 1 { fail(e, "\(o) willFinish out of order") }
        phase[o] = 2
      case .didFinish(let o, _, _):
        if phase[o, default: 0] != 2 { fail(e, "\(o) didFinish without willFinish just before") }
        phase[o] = 3
        finishes[o, default: 0] += 1
        finished.insert(o)
        if began.contains(o), let q = queueOf[o] { executing[q, default: 0] -= 1 }
        for cat in exclusivity[o, default: []] where holder[cat] == o { holder[cat] = nil }
      default: break
      }
    }
    for (o, n) in finishes where n != 1 { problems.append("\(o) finished \(n) times") }
    // ProcedureKit can deadlock (X10): reclaimers fill their queue's slots waiting for a lock whose
    // holder waits for one of those slots. Then nothing more can finish; anything else is a failure.
    let deadlocked = slotHolders.contains { o, h in
      guard finishes[o] == nil, state[h] == .ready, let q = queueOf[o], queueOf[h] == q,
        let cap = limit[q] ?? nil
      else { return false }
      return executing[q, default: 0] >= cap
    }
    if requireAllFinished && !deadlocked {
      for o in queueOf.keys.sorted() where finishes[o] == nil {
        problems.append("\(o) never finished (state \(state[o] ?? .initialized))")
      }
    }
    return problems
  }
}
