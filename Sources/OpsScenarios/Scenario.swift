import OpsEngine
import OpsEvents

/// A validated scenario: queues, operations and scripted actions, ready to become a runtime.
public struct Scenario: Sendable {
  /// The `scenario:` key, or the file name without extension.
  public var id: String
  public var title: String
  public var notes: String
  /// The default playback speed (1 = real time).
  public var speed: Double
  /// In file order; an implicit queue named "default" when the file declares none.
  public var queues: [QueueSpec]
  /// In file order.
  public var operations: [ScenarioOperation]
  /// In file order.
  public var actions: [ScenarioAction]
  /// Teaching moments, in file order: where the board pauses and shows a caption.
  public var moments: [ScenarioMoment] = []
  /// The file path, or `builtin:NAME` for an embedded scenario.
  public var source: String
  /// Things that are allowed but worth saying, e.g. a dependency cycle.
  public var warnings: [String]

  public init(
    id: String, title: String = "", notes: String = "", speed: Double = 1,
    queues: [QueueSpec] = [], operations: [ScenarioOperation] = [],
    actions: [ScenarioAction] = [], source: String = "", warnings: [String] = []
  ) {
    self.id = id
    self.title = title
    self.notes = notes
    self.speed = speed
    self.queues = queues
    self.operations = operations
    self.actions = actions
    self.source = source
    self.warnings = warnings
  }

  public func operation(named name: String) -> ScenarioOperation? {
    operations.first { $0.spec.name == name }
  }
}

/// An operation of a scenario and how it joins its queue.
public struct ScenarioOperation: Sendable {
  public var spec: OperationSpec
  /// The queue it is added to. For a group's child, the group's inner queue (`GROUP.children`); for a
  /// produced operation, the queue its producer adds it to.
  public var queue: String
  /// Scenario seconds at which it is added to its queue (ignored for produced operations and children).
  public var addedAt: Double
  /// Only added by a condition's `dependency` or a `produces` entry, never directly.
  public var produced: Bool

  public init(spec: OperationSpec, queue: String, addedAt: Double = 0, produced: Bool = false) {
    self.spec = spec
    self.queue = queue
    self.addedAt = addedAt
    self.produced = produced
  }
}

/// A scripted intervention: the same commands the board's keys send, at a scenario time.
public struct ScenarioAction: Sendable, Equatable {
  public var at: Double
  public var command: Command

  public init(at: Double, command: Command) {
    self.at = at
    self.command = command
  }
}
