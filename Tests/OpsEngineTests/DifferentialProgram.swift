import OpsEngine
import OpsEvents

/// A program over operation queues that runs both on the real Foundation `OperationQueue`
/// (`FoundationMirror`) and on the virtual runtime, so the two can be compared. Every step is one
/// action; work never finishes on its own (except `autoFinish`) but only when a `finish` step says so,
/// which makes the real run deterministic without any timing.
struct DiffProgram: Sendable, CustomStringConvertible {
  struct Queue: Sendable {
    var name: String
    /// nil: Foundation's default, no limit.
    var maxConcurrent: Int?
    var suspended = false
  }

  struct Op: Sendable {
    var name: String
    var queue: String
    /// nil: not set (Foundation derives one from the QoS on a queue whose limit is not 1).
    var priority: QueuePriority?
    /// nil: not set.
    var qos: QoS?
    var dependencies: [String] = []
    /// Added with `addBarrierBlock` (it cannot have dependencies, nor be cancelled on its own).
    var barrier = false
    /// Finishes as soon as it starts. Only on serial queues: work finishing concurrently races.
    var autoFinish = false
  }

  enum Step: Sendable, Equatable {
    /// Adds the operation to its queue (`addOperation` / `addBarrierBlock`).
    case add(String)
    case resume(String)
    case suspend(String)
    case setMax(String, Int?)
    case cancel(String)
    case cancelAll(String)
    /// The work of this executing operation returns.
    case finish(String)
    // Resolved against the virtual runtime into `finish` steps (see `resolved()`); the executing
    // operations are ordered by the step they started in, then by name.
    /// Finishes the first executing operation of this queue (nothing if none).
    case finishFirst(String)
    /// Finishes the executing operation at this index, modulo their number (nothing if none).
    case finishNth(Int)
    /// Finishes executing operations one per step until none is left.
    case finishEverything
  }

  var queues: [Queue]
  var ops: [Op]
  var steps: [Step]

  func op(_ name: String) -> Op { ops.first { $0.name == name }! }

  var description: String {
    let qs = queues.map {
      "\($0.name)(max \($0.maxConcurrent.map(String.init) ?? "∞")\($0.suspended ? ", suspended" : ""))"
    }
    let os = ops.map { o in
      var s = "\(o.name)@\(o.queue)"
      if let p = o.priority { s += " \(p)" }
      if let q = o.qos { s += " qos:\(q)" }
      if !o.dependencies.isEmpty { s += " deps:\(o.dependencies)" }
      if o.barrier { s += " barrier" }
      if o.autoFinish { s += " auto" }
      return s
    }
    let ss = steps.enumerated().map { "\($0.offset + 1):\($0.element)" }
    return "queues \(qs)\nops \(os)\nsteps \(ss)"
  }
}

/// What a run shows: which operations started and finished during each step, and which ended cancelled.
struct DiffTrace: Equatable, Sendable, CustomStringConvertible {
  /// Starts during step i (index i - 1), in the order seen.
  var startsPerStep: [[String]]
  /// Finishes (barriers excepted) during step i.
  var finishesPerStep: [[String]]
  var cancelled: Set<String>

  var started: [String] { startsPerStep.flatMap { $0 } }

  /// Starts of one queue's operations, in order.
  func order(in queue: String, of program: DiffProgram) -> [String] {
    started.filter { program.op($0).queue == queue }
  }

  var description: String {
    let steps = startsPerStep.indices.compactMap { i -> String? in
      let s = startsPerStep[i]
      let f = i < finishesPerStep.count ? finishesPerStep[i] : []
      if s.isEmpty && f.isEmpty { return nil }
      return "\(i + 1):+\(s.joined(separator: ","))/-\(f.joined(separator: ","))"
    }
    return steps.joined(separator: " ") + " cancelled \(cancelled.sorted())"
  }
}

enum DiffProgramError: Error, CustomStringConvertible {
  case notExecuting(step: Int, String)
  case stillExecuting(step: Int, String)
  var description: String {
    switch self {
    case .notExecuting(let step, let name):
      "step \(step) finishes \(name), which is not executing on the virtual runtime"
    case .stillExecuting(let step, let name):
      "step \(step) finished \(name), but it is still executing on the virtual runtime"
    }
  }
}

extension DiffProgram {
  /// Virtual work that never ends by itself; a `finish` step gives an operation the duration that ends
  /// it exactly at that step.
  static let endless = 1_000_000.0
  /// Self-finishing work: short, so chains of it end well within one step.
  static let instant = 0.001

  /// The program with its adaptive steps resolved against the virtual runtime into `finish` steps, and
  /// the duration that makes each finished operation end at its step. Step i happens at virtual time i.
  /// An operation's start depends only on earlier steps, so a run with the durations known so far says
  /// what is executing before each step.
  func resolved() throws -> (program: DiffProgram, durations: [String: Double]) {
    var concrete = self
    concrete.steps = []
    var durations: [String: Double] = [:]
    func executing() throws -> [(name: String, start: Double)] {
      let rt = try concrete.build(durations: durations)
      rt.run(until: Double(concrete.steps.count) + 0.5)
      return rt.events.compactMap {
        if case .didStart(let o) = $0.kind, rt.state(of: o) == .executing {
          (o, $0.time)
        } else {
          nil
        }
      }.sorted { (Int($0.start), $0.name) < (Int($1.start), $1.name) }
    }
    func finish(_ running: (name: String, start: Double)) throws {
      // Finished once: executing again would mean the runtime ignored its duration.
      guard durations[running.name] == nil else {
        throw DiffProgramError.stillExecuting(step: concrete.steps.count + 1, running.name)
      }
      concrete.steps.append(.finish(running.name))
      durations[running.name] = Double(concrete.steps.count) - running.start
    }
    for step in steps {
      switch step {
      case .finish(let name):
        guard let running = try executing().first(where: { $0.name == name }) else {
          throw DiffProgramError.notExecuting(step: concrete.steps.count + 1, name)
        }
        try finish(running)
      case .finishFirst(let q):
        if let running = try executing().first(where: { op($0.name).queue == q }) {
          try finish(running)
        }
      case .finishNth(let k):
        let running = try executing()
        if !running.isEmpty { try finish(running[k % running.count]) }
      case .finishEverything:
        while let running = try executing().first { try finish(running) }
      default:
        concrete.steps.append(step)
      }
    }
    return (concrete, durations)
  }

  fileprivate func build(durations: [String: Double]) throws -> VirtualRuntime {
    let rt = VirtualRuntime()
    for q in queues {
      try rt.addQueue(
        QueueSpec(name: q.name, maxConcurrent: q.maxConcurrent, suspended: q.suspended))
    }
    // Cancelling executing work changes nothing (`ignored`: a `main()` that never checks), as in Foundation.
    try rt.addOperations(
      ops.map { o in
        OperationSpec(
          name: o.name, priority: o.priority, qos: o.qos ?? .default, dependencies: o.dependencies,
          cancellation: .ignored, barrier: o.barrier,
          work: WorkScript(
            duration: durations[o.name] ?? (o.autoFinish ? Self.instant : Self.endless)))
      })
    for (i, step) in steps.enumerated() {
      let t = Double(i + 1)
      switch step {
      case .add(let name): try rt.enqueue(name, on: op(name).queue, at: t)
      case .resume(let q): rt.schedule(.resume(queue: q), at: t)
      case .suspend(let q): rt.schedule(.suspend(queue: q), at: t)
      case .setMax(let q, let v): rt.schedule(.setMaxConcurrent(queue: q, value: v), at: t)
      case .cancel(let name): rt.schedule(.cancel(operation: name), at: t)
      case .cancelAll(let q): rt.schedule(.cancelAll(queue: q), at: t)
      case .finish, .finishFirst, .finishNth, .finishEverything: break
      }
    }
    return rt
  }

  /// Resolves the program and plays it on the virtual runtime: the resolved program and its trace.
  func virtualTrace() throws -> (program: DiffProgram, trace: DiffTrace) {
    let (program, durations) = try resolved()
    let rt = try program.build(durations: durations)
    rt.run()
    let n = program.steps.count
    var starts = [[String]](repeating: [], count: n)
    var finishes = [[String]](repeating: [], count: n)
    let barriers = Set(ops.filter(\.barrier).map(\.name))
    for e in rt.events {
      // Anything after the last step (work nobody finished) counts in the last one.
      let step = min(max(Int(e.time.rounded(.down)), 1), n) - 1
      switch e.kind {
      case .didStart(let o): starts[step].append(o)
      case .didFinish(let o, _, _) where !barriers.contains(o): finishes[step].append(o)
      default: break
      }
    }
    let cancelled = Set(ops.map(\.name).filter { !barriers.contains($0) && rt.isCancelled($0) })
    return (
      program, DiffTrace(startsPerStep: starts, finishesPerStep: finishes, cancelled: cancelled)
    )
  }

  /// Queues that never run more than one operation at a time, where the start order is exact.
  var serialQueues: [String] {
    queues.filter { q in
      var limit = q.maxConcurrent ?? Int.max
      var suspended = q.suspended
      var serial = suspended || limit <= 1
      for step in steps {
        switch step {
        case .setMax(q.name, let v): limit = v ?? Int.max
        case .suspend(q.name): suspended = true
        case .resume(q.name): suspended = false
        default: continue
        }
        serial = serial && (suspended || limit <= 1)
      }
      return serial
    }.map(\.name)
  }

  /// Differences between a Foundation trace and the virtual one: per step the same operations start
  /// and finish (as sets: concurrent starts race), serial queues start them in the same order, and the
  /// same operations end up cancelled.
  func differences(foundation f: DiffTrace, virtual v: DiffTrace) -> [String] {
    var out: [String] = []
    for i in steps.indices {
      if Set(f.startsPerStep[i]) != Set(v.startsPerStep[i]) {
        out.append(
          "step \(i + 1) \(steps[i]): Foundation started \(f.startsPerStep[i].sorted()), virtual \(v.startsPerStep[i].sorted())"
        )
      }
      if Set(f.finishesPerStep[i]) != Set(v.finishesPerStep[i]) {
        out.append(
          "step \(i + 1) \(steps[i]): Foundation finished \(f.finishesPerStep[i].sorted()), virtual \(v.finishesPerStep[i].sorted())"
        )
      }
    }
    for q in serialQueues where f.order(in: q, of: self) != v.order(in: q, of: self) {
      out.append(
        "serial \(q): Foundation order \(f.order(in: q, of: self)), virtual \(v.order(in: q, of: self))"
      )
    }
    if f.cancelled != v.cancelled {
      out.append("cancelled: Foundation \(f.cancelled.sorted()), virtual \(v.cancelled.sorted())")
    }
    return out
  }
}

/// The outcome of playing a program on both sides.
struct Differential: Sendable {
  /// The program with its adaptive steps resolved.
  var program: DiffProgram
  var virtual: DiffTrace
  /// Nil when the Foundation run did not go as the virtual runtime predicted (see `problems`).
  var foundation: DiffTrace?
  /// Where the two disagree; empty when they agree.
  var problems: [String]

  init(_ program: DiffProgram) throws {
    (self.program, virtual) = try program.virtualTrace()
    switch FoundationMirror.run(self.program, expecting: virtual) {
    case .success(let trace):
      foundation = trace
      problems = self.program.differences(foundation: trace, virtual: virtual)
    case .failure(let failure):
      foundation = nil
      problems = ["\(failure)"]
    }
  }

  var report: String {
    "\(problems.joined(separator: "\n"))\nprogram \(program)\nvirtual \(virtual)\nfoundation \(foundation.map(\.description) ?? "-")"
  }
}
