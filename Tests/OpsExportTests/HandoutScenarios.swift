import OpsEngine
import OpsEvents
import OpsScenarios

/// Small scenarios for what the handouts must say: every way a cancelled operation can end, a queue
/// whose settings change, and marks that all fall on one arrow.
enum HandoutScenarios {
  static func op(
    _ name: String, _ queue: String, work: Double, checkEvery: Double = 0.25,
    cancellation: CancellationMode = .cooperative, timeout: Double? = nil,
    dependencies: [String] = [], fails: String? = nil, exclusivity: [String] = [],
    addedAt: Double = 0
  ) -> ScenarioOperation {
    ScenarioOperation(
      spec: OperationSpec(
        name: name, dependencies: dependencies, exclusivity: exclusivity,
        cancellation: cancellation, timeout: timeout,
        work: WorkScript(duration: work, checkEvery: checkEvery, fails: fails)),
      queue: queue, addedAt: addedAt)
  }

  /// polite notices its cancel at its next check; stubborn never checks; abrupt is finished at
  /// once; timed is cancelled by its timeout; queued is cancelled before it started and finishes
  /// only when its busy serial queue starts it; waiter is cancelled before it started and finished
  /// at once.
  static let endings = Scenario(
    id: "endings", title: "Endings",
    queues: [
      QueueSpec(name: "work", maxConcurrent: 6), QueueSpec(name: "serial", maxConcurrent: 1),
    ],
    operations: [
      op("polite", "work", work: 8, checkEvery: 0.5),
      op("stubborn", "work", work: 4, cancellation: .ignored),
      op("abrupt", "work", work: 8, cancellation: .immediate),
      op("timed", "work", work: 9, checkEvery: 0.75, timeout: 2),
      op("slow", "serial", work: 5),
      op("queued", "serial", work: 1, dependencies: ["slow"]),
      op("waiter", "work", work: 1, dependencies: ["slow"]),
    ],
    actions: [
      ScenarioAction(at: 2.2, command: .cancel(operation: "polite")),
      ScenarioAction(at: 1, command: .cancel(operation: "stubborn")),
      ScenarioAction(at: 3, command: .cancel(operation: "abrupt")),
      ScenarioAction(at: 1, command: .cancel(operation: "queued")),
      ScenarioAction(at: 2, command: .cancel(operation: "waiter")),
    ])

  /// q: its limit raised, set again to the same, then unlimited; suspended twice, the second time
  /// to the end (a warning about the queue itself follows). r: added suspended, resumed at 2 s.
  static let queueHistory = Scenario(
    id: "queues", title: "Queue history",
    queues: [
      QueueSpec(name: "q", maxConcurrent: 1),
      QueueSpec(name: "r", maxConcurrent: 2, suspended: true),
    ],
    operations: [
      op("long", "q", work: 6), op("late", "q", work: 1, addedAt: 5.5), op("parked", "r", work: 1),
    ],
    actions: [
      ScenarioAction(at: 1, command: .setMaxConcurrent(queue: "q", value: 3)),
      ScenarioAction(at: 1, command: .setMaxConcurrent(queue: "q", value: 3)),
      ScenarioAction(at: 2, command: .setMaxConcurrent(queue: "q", value: nil)),
      ScenarioAction(at: 2, command: .resume(queue: "r")),
      ScenarioAction(at: 3, command: .suspend(queue: "q")),
      ScenarioAction(at: 4, command: .resume(queue: "q")),
      ScenarioAction(at: 5, command: .suspend(queue: "q")),
    ])

  /// Everything at 2 s on one queue, in the rows an arrow from `a` crosses: three cancels (one of
  /// them ignored, so a warning later), a failure, and the dependents that start then, two of them
  /// warned that they ran after a failed dependency.
  static let crowded = Scenario(
    id: "crowded", title: "Crowded",
    queues: [QueueSpec(name: "main")],
    operations: [
      op("a", "main", work: 2),
      op("x1", "main", work: 4, checkEvery: 0.5),
      op("x2", "main", work: 4, cancellation: .immediate),
      op("bad", "main", work: 2, fails: "boom"),
      op("x3", "main", work: 4, cancellation: .ignored),
      op("d1", "main", work: 1, dependencies: ["a", "bad"]),
      op("d2", "main", work: 1, dependencies: ["a"]),
      op("d3", "main", work: 1, dependencies: ["bad"]),
    ],
    actions: [
      ScenarioAction(at: 2, command: .cancel(operation: "x1")),
      ScenarioAction(at: 2, command: .cancel(operation: "x2")),
      ScenarioAction(at: 2, command: .cancel(operation: "x3")),
    ])
}
