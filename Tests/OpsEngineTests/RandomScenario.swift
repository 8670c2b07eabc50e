import OpsEngine
import OpsEvents
import PropertyBased

/// A random workload: queues, a random DAG of operations (edges only to earlier operations, so acyclic)
/// and random interventions. Small integers throughout so failures print and shrink readably.
struct RandomScenario: Sendable, CustomStringConvertible {
  struct Queue: Sendable {
    /// nil: Foundation's default (no limit); 0: nothing starts.
    var limit: Int?
    var suspended: Bool
  }

  struct Op: Sendable {
    var queue: Int
    /// 0...4 index into QueuePriority.allCases, 5: none given (derived from QoS).
    var priority: Int
    /// Work length in tenths of a (virtual) second.
    var tenths: Int
    /// Bit j (for j below this operation's index): depends on operation j.
    var dependencyBits: UInt32
    /// 7: x, 8: y, 9: x and y; otherwise none.
    var exclusive: Int
    var mode: Int
    /// 5: a condition that is satisfied, 6: one that fails, 7: noFailedDependencies; otherwise none.
    var condition: Int
    /// 4: a timeout; otherwise none.
    var timeout: Int
    var qos: Int
  }

  struct Intervention: Sendable {
    /// When (virtual runtime, in tenths of a second) or after which enqueue (live runtime).
    var tenths: Int
    var kind: Int
    var target: Int
    var value: Int
  }

  var queues: [Queue]
  var ops: [Op]
  var interventions: [Intervention]

  func name(_ i: Int) -> String { "op\(i)" }
  func queueName(_ i: Int) -> String { "q\(i % queues.count)" }

  var queueSpecs: [QueueSpec] {
    queues.enumerated().map {
      QueueSpec(
        name: "q\($0.offset)", maxConcurrent: $0.element.limit, suspended: $0.element.suspended)
    }
  }

  func dependencies(of i: Int) -> [String] {
    (0..<min(i, 32)).filter { ops[i].dependencyBits & (1 << UInt32($0)) != 0 }.map(name)
  }

  func categories(of i: Int) -> [String] {
    switch ops[i].exclusive {
    case 7: ["x"]
    case 8: ["y"]
    case 9: ["x", "y"]
    default: []
    }
  }

  var exclusivity: [String: [String]] {
    Dictionary(uniqueKeysWithValues: ops.indices.map { (name($0), categories(of: $0)) })
  }

  /// The operation specs; `scale` turns tenths into seconds for timeouts, condition evaluation and work.
  func specs(scale: Double) -> [OperationSpec] {
    ops.indices.map { i in
      let o = ops[i]
      var conditions: [ConditionSpec] = []
      switch o.condition {
      case 5: conditions = [ConditionSpec(name: "fine", evaluate: 3 * scale)]
      case 6:
        conditions = [
          ConditionSpec(name: "refused", check: .scripted(result: .failed, error: "refused"))
        ]
      case 7: conditions = [ConditionSpec(name: "clean", check: .noFailedDependencies)]
      default: break
      }
      return OperationSpec(
        name: name(i), priority: o.priority < 5 ? QueuePriority.allCases[o.priority] : nil,
        qos: QoS.allCases[o.qos], dependencies: dependencies(of: i),
        conditions: conditions,
        exclusivity: categories(of: i), cancellation: CancellationMode.allCases[o.mode],
        timeout: o.timeout == 4 ? 5 * scale : nil,
        work: WorkScript(
          duration: Double(o.tenths) * scale, checkEvery: scale, fails: i % 5 == 4 ? "broke" : nil))
    }
  }

  func command(_ v: Intervention) -> Command {
    let q = queueName(v.target)
    switch v.kind {
    case 0, 5: return .cancel(operation: name(v.target % ops.count))
    case 1: return .cancelAll(queue: q)
    case 2: return .suspend(queue: q)
    case 3: return .resume(queue: q)
    default: return .setMaxConcurrent(queue: q, value: v.value == 4 ? nil : v.value)
    }
  }

  /// What undoes every intervention that could leave work waiting forever.
  var releaseEverything: [Command] {
    queues.indices.flatMap {
      [Command.resume(queue: "q\($0)"), .setMaxConcurrent(queue: "q\($0)", value: 2)]
    }
  }

  var description: String {
    let qs = queues.map { "\($0.limit.map(String.init) ?? "∞")\($0.suspended ? "s" : "")" }
    let os = ops.indices.map { i in
      "\(name(i))@\(queueName(ops[i].queue)) p\(ops[i].priority) w\(ops[i].tenths) deps\(dependencies(of: i)) x\(categories(of: i)) m\(ops[i].mode) c\(ops[i].condition) t\(ops[i].timeout)"
    }
    let vs = interventions.map { "\($0.tenths):\(command($0))" }
    return "queues \(qs)\n" + os.joined(separator: "\n") + "\ninterventions \(vs)"
  }

  // MARK: - Generators

  /// Limits: mostly small or unlimited, sometimes 0 (nothing starts until an intervention or the release).
  static let queueGen = zip(Gen.int(in: 0...9), Gen.bool(0.15)).map { v, suspended in
    Queue(limit: [0, 1, 1, 2, 2, 3][safe: v], suspended: suspended)
  }

  static let opGen = zip(
    Gen.int(in: 0...3), Gen.int(in: 0...5), Gen.int(in: 0...20), Gen<UInt32>.bitSet,
    Gen<UInt32>.bitSet,
    Gen.int(in: 0...9), Gen.int(in: 0...2), Gen.int(in: 0...7), Gen.int(in: 0...4),
    Gen.int(in: 0...4)
  ).map { q, p, t, b1, b2, x, m, c, to, qos in
    // Two random masks ANDed: each earlier operation is a dependency with probability 1/4.
    Op(
      queue: q, priority: p, tenths: t, dependencyBits: b1 & b2, exclusive: x, mode: m,
      condition: c, timeout: to, qos: qos)
  }

  static let interventionGen = zip(
    Gen.int(in: 0...60), Gen.int(in: 0...5), Gen.int(in: 0...31), Gen.int(in: 0...4)
  )
  .map { Intervention(tenths: $0, kind: $1, target: $2, value: $3) }

  static func generator(maxOps: Int) -> Generator<RandomScenario, some SendableSequenceType> {
    zip(queueGen.array(of: 1...3), opGen.array(of: 1...maxOps), interventionGen.array(of: 0...8))
      .map { RandomScenario(queues: $0, ops: $1, interventions: $2) }
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
