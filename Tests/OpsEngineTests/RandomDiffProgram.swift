import OpsEngine
import OpsEvents
import PropertyBased

/// Random programs for the Foundation differential properties, kept to situations whose outcome in
/// Foundation is deterministic: Foundation releases the dependents of a finished operation one at a
/// time, in the order of a hash set, scheduling after each, so when several become ready together on
/// a queue with a free slot, which of them gets it is a race. Either everything runs on one serial
/// queue (one slot: nothing is dispatched until the finished operation gives its slot back, then the
/// queue picks by priority), or every operation is a dependency of at most one other and cancelled
/// operations are nobody's dependency.
///
/// Three more things are avoided because Foundation does not survive them: adding an operation that was
/// cancelled before it was added to a queue holding a barrier not yet started (the barrier dependency
/// it adds finds it ready and schedules the queue while holding the queue's lock: a self-deadlock);
/// cancelling a barrier before all it waits for has finished (`cancelAll`: the cancelled barrier is
/// started and released first, and operations it waited for still hold an unretained pointer to it,
/// which they follow when they finish: a use after free); and a barrier between an operation and a
/// dependency added after it (the barrier waits for the operation, which waits for the dependency,
/// which waits for the barrier: a deadlock).
enum RandomDiffProgram {
  struct Op: Sendable {
    /// 0...4: QueuePriority.allCases; otherwise not set.
    var priority: Int
    /// 0...4: QoS.allCases; otherwise not set.
    var qos: Int
    /// Bit j (j below this operation's index): depends on operation j.
    var dependencyBits: UInt32
    var queue: Int
    var autoFinish: Bool
    var cancelledEarly: Bool
    /// Added in the middle of the run instead of before the first resume.
    var late: Bool
    /// A barrier block (serial programs only: a barrier releases everything added after it at once;
    /// and never late, see `build`).
    var barrier: Bool
  }

  struct Action: Sendable {
    var kind: Int
    var target: Int
  }

  static let opGen = zip(
    Gen.int(in: 0...6), Gen.int(in: 0...6), Gen<UInt32>.bitSet, Gen<UInt32>.bitSet,
    Gen.int(in: 0...1), Gen.bool(0.3), Gen.bool(0.2), Gen.bool(0.25), Gen.bool(0.1)
  ).map { p, q, b1, b2, queue, auto, cancelled, late, barrier in
    // Two masks ANDed: each earlier operation is a dependency with probability 1/4.
    Op(
      priority: p, qos: q, dependencyBits: b1 & b2, queue: queue, autoFinish: auto,
      cancelledEarly: cancelled, late: late, barrier: barrier)
  }

  static let actionGen = zip(Gen.int(in: 0...13), Gen.int(in: 0...31)).map {
    Action(kind: $0, target: $1)
  }

  /// One serial queue, its limit at enqueue 1, 2 or the default (so priorities may be derived from
  /// QoS), made serial before it is resumed: everything is allowed, and the start order is exact.
  static var serial: Generator<DiffProgram, some SendableSequenceType> {
    zip(Gen.int(in: 0...2), opGen.array(of: 1...8), actionGen.array(of: 0...20)).map {
      limit, ops, actions in
      build(
        queues: [DiffProgram.Queue(name: "q", maxConcurrent: [1, 2, nil][limit], suspended: true)],
        ops: ops, actions: actions, concurrent: false)
    }
  }

  /// One or two queues allowing 2, 3, 4 or any number of operations, dependencies within and across
  /// them, limits changed on the way (to 0 and to 1 too).
  static var concurrent: Generator<DiffProgram, some SendableSequenceType> {
    zip(
      Gen.int(in: 0...3).array(of: 1...2), opGen.array(of: 2...10), actionGen.array(of: 0...20)
    ).map { limits, ops, actions in
      build(
        queues: limits.enumerated().map {
          DiffProgram.Queue(
            name: "q\($0.offset)", maxConcurrent: [2, 3, 4, nil][$0.element], suspended: true)
        }, ops: ops, actions: actions, concurrent: true)
    }
  }

  static func build(
    queues: [DiffProgram.Queue], ops raw: [Op], actions: [Action], concurrent: Bool
  ) -> DiffProgram {
    let name = { (i: Int) in "o\(i)" }
    var claimed = Set<Int>()
    var ops: [DiffProgram.Op] = []
    // Barriers are added before the first resume: a barrier that has finished stays in its queue's
    // list for a moment on another thread, which decides whether a barrier added then waits for it
    // or runs at once (on an empty queue). Nothing observable says when that moment is over.
    let isBarrier = { (i: Int) in !concurrent && raw[i].barrier && !raw[i].late }
    let anyBarrier = raw.indices.contains(where: isBarrier)
    for (i, r) in raw.enumerated() {
      // A barrier block can neither have dependencies nor be one; with barriers around, dependencies
      // are added before their dependents (late operations are added in order, after the others).
      var deps =
        isBarrier(i)
        ? []
        : (0..<min(i, 32)).filter {
          r.dependencyBits & (1 << UInt32($0)) != 0 && !isBarrier($0)
            && !(anyBarrier && raw[$0].late && !r.late)
        }
      if concurrent {
        deps = deps.filter { !claimed.contains($0) }
        claimed.formUnion(deps)
      }
      ops.append(
        DiffProgram.Op(
          name: name(i), queue: queues[r.queue % queues.count].name,
          priority: r.priority < 5 ? QueuePriority.allCases[r.priority] : nil,
          qos: r.qos < 5 ? QoS.allCases[r.qos] : nil,
          dependencies: deps.map(name), barrier: isBarrier(i),
          autoFinish: !concurrent && r.autoFinish))
    }
    // Concurrent programs cancel only operations nobody depends on (see the type's comment); a barrier
    // block cannot be cancelled on its own.
    let cancellable = ops.indices.filter {
      (!concurrent || !claimed.contains($0)) && !isBarrier($0)
    }
    var late = raw.indices.filter { raw[$0].late }

    var added = Set(raw.indices.filter { !raw[$0].late })
    var steps: [DiffProgram.Step] = added.sorted().map { .add(name($0)) }
    if !concurrent { steps.append(.setMax("q", 1)) }
    // Cancelling before adding is fine, unless a barrier may be waiting (see the type's comment).
    let mayCancel = { (i: Int) in !anyBarrier || added.contains(i) }
    steps += cancellable.filter { raw[$0].cancelledEarly && mayCancel($0) }.map {
      .cancel(name($0))
    }
    steps += queues.map { .resume($0.name) }
    for a in actions {
      let q = queues[a.target % queues.count].name
      switch a.kind {
      case 0:
        let targets = cancellable.filter(mayCancel)
        if !targets.isEmpty { steps.append(.cancel(name(targets[a.target % targets.count]))) }
      case 1: steps.append(.suspend(q))
      case 2: steps.append(.resume(q))
      case 3: steps.append(.setMax(q, 0))
      case 4: steps.append(.setMax(q, concurrent ? [1, 2, 3, nil][a.target % 4] : 1))
      case 5, 6:
        if !late.isEmpty {
          added.insert(late[0])
          steps.append(.add(name(late.removeFirst())))
        }
      // On a queue with a free slot, Foundation may start a cancelled operation, finish it and start
      // a dependent before its cancelling loop reaches that one: cancel all on a suspended queue.
      case 7: if !concurrent && !anyBarrier { steps += [.suspend(q), .cancelAll(q)] }
      default: steps.append(concurrent ? .finishNth(a.target) : .finishFirst(q))
      }
    }
    steps += late.map { .add(name($0)) }
    for q in queues { steps += [.resume(q.name), .setMax(q.name, concurrent ? 2 : 1)] }
    steps.append(.finishEverything)
    return DiffProgram(queues: queues, ops: ops, steps: steps)
  }
}
