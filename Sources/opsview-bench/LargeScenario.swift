import OpsEngine
import OpsEvents
import OpsScenarios

/// A generated scenario of `count` operations shaped like the built-in stress scenario: chains of
/// ingest → transform (waiting for two ingests) → store → notify on four queues with different
/// limits, added over time, with pseudo-random but fixed work, and a few cancellations.
func largeScenario(operations count: Int = 50_000) -> Scenario {
  let chains = count / 4
  var random = FixedRandom(seed: 42)
  var operations: [ScenarioOperation] = []
  operations.reserveCapacity(chains * 4)
  for k in 0..<chains {
    let added = Double(k) * 0.02
    func op(_ name: String, _ queue: String, _ deps: [String], _ range: ClosedRange<Int>) {
      let work = Double(random.next(in: range)) / 100
      operations.append(
        ScenarioOperation(
          spec: OperationSpec(name: name, dependencies: deps, work: WorkScript(duration: work)),
          queue: queue, addedAt: added))
    }
    op("in\(k)", "ingest", [], 20...90)
    op("tr\(k)", "transform", k > 0 ? ["in\(k)", "in\(k - 1)"] : ["in\(k)"], 10...40)
    op("st\(k)", "store", ["tr\(k)"], 5...25)
    op("nt\(k)", "notify", ["st\(k)"], 1...5)
  }
  let actions = stride(from: 7, to: chains, by: 997).map {
    ScenarioAction(at: Double($0) * 0.02 + 0.5, command: .cancel(operation: "tr\($0)"))
  }
  return Scenario(
    id: "generated-\(chains * 4)", title: "Generated: \(chains * 4) operations on four queues",
    queues: [
      QueueSpec(name: "ingest", maxConcurrent: 16), QueueSpec(name: "transform", maxConcurrent: 8),
      QueueSpec(name: "store", maxConcurrent: 4), QueueSpec(name: "notify"),
    ],
    operations: operations, actions: actions, source: "generated")
}

/// A small linear congruential generator: the same numbers on every machine and every run.
struct FixedRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(in range: ClosedRange<Int>) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return range.lowerBound + Int((state >> 33) % UInt64(range.count))
  }
}
