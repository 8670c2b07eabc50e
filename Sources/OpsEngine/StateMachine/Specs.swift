import OpsEvents

/// A queue as declared by a scenario or a library user.
public struct QueueSpec: Sendable, Equatable {
  public var name: String
  /// `nil` is Foundation's default: no limit.
  public var maxConcurrent: Int?
  public var suspended: Bool
  public var qos: QoS

  public init(
    name: String, maxConcurrent: Int? = nil, suspended: Bool = false,
    qos: QoS = .default
  ) {
    self.name = name
    self.maxConcurrent = maxConcurrent
    self.suspended = suspended
    self.qos = qos
  }
}

/// A condition attached to an operation, evaluated once all of its dependencies have finished.
public struct ConditionSpec: Sendable, Equatable {
  public enum Check: Sendable, Equatable {
    /// A scripted evaluation (virtual runtime) or a closure (live runtime) decides.
    case scripted(result: ConditionResult, error: String?)
    /// Fails if any dependency finished with errors (ProcedureKit's NoFailedDependenciesCondition).
    case noFailedDependencies
    /// Fails if any dependency was cancelled.
    case noCancelledDependencies
  }

  public var name: String
  public var check: Check
  /// Seconds the evaluation takes on the virtual clock.
  public var evaluate: Double
  /// An operation this condition adds as a dependency when its operation is enqueued (e.g. `login`).
  public var dependency: String?
  /// Inverts the result (PSOperations' NegatedCondition).
  public var negated: Bool
  /// Suppresses the produced dependency (PSOperations' SilentCondition).
  public var silent: Bool

  public init(
    name: String, check: Check = .scripted(result: .satisfied, error: nil), evaluate: Double = 0,
    dependency: String? = nil, negated: Bool = false, silent: Bool = false
  ) {
    self.name = name
    self.check = check
    self.evaluate = evaluate
    self.dependency = dependency
    self.negated = negated
    self.silent = silent
  }

  /// The name shown in events and on the board.
  public var label: String {
    var s = name
    if negated { s = "not(\(s))" }
    if silent { s = "silent(\(s))" }
    return s
  }
}

/// What an operation's work does on the virtual clock.
public struct WorkScript: Sendable, Equatable {
  public struct Production: Sendable, Equatable {
    public var at: Double
    public var operation: String
    public init(at: Double, operation: String) {
      self.at = at
      self.operation = operation
    }
  }

  /// Seconds of work (for a block operation, the longest block).
  public var duration: Double
  /// How often cooperative work checks `isCancelled`.
  public var checkEvery: Double
  /// The work finishes with this error.
  public var fails: String?
  /// `false`: an async operation whose work never calls finish.
  public var finishes: Bool
  public var produces: [Production]
  /// Durations of the concurrent blocks of a block operation.
  public var blocks: [Double]

  public init(
    duration: Double = 1, checkEvery: Double = 0.25, fails: String? = nil, finishes: Bool = true,
    produces: [Production] = [], blocks: [Double] = []
  ) {
    self.duration = duration
    self.checkEvery = checkEvery
    self.fails = fails
    self.finishes = finishes
    self.produces = produces
    self.blocks = blocks
  }

  /// How long the work runs when nothing interrupts it.
  public var effectiveDuration: Double { blocks.isEmpty ? duration : (blocks.max() ?? 0) }
}

/// An operation as declared by a scenario or a library user.
public struct OperationSpec: Sendable, Equatable {
  public var name: String
  /// `nil` means "not given": Foundation derives one from the QoS on a non-serial queue.
  public var priority: QueuePriority?
  public var qos: QoS
  public var dependencies: [String]
  public var conditions: [ConditionSpec]
  /// Mutual-exclusivity categories: at most one operation of a category executes at a time.
  public var exclusivity: [String]
  public var cancellation: CancellationMode
  public var timeout: Double?
  /// A group operation over these (already declared) operations.
  public var children: [String]
  /// A barrier: runs after everything added to its queue before it; everything added after waits for it.
  public var barrier: Bool
  /// Whether a completion block is attached (it runs after the operation finished).
  public var completion: Bool
  /// An async operation finishes only when its work says so.
  public var isAsync: Bool
  public var work: WorkScript

  public init(
    name: String, priority: QueuePriority? = nil, qos: QoS = .default,
    dependencies: [String] = [],
    conditions: [ConditionSpec] = [], exclusivity: [String] = [],
    cancellation: CancellationMode = .cooperative,
    timeout: Double? = nil, children: [String] = [], barrier: Bool = false,
    completion: Bool = false,
    isAsync: Bool = false, work: WorkScript = WorkScript()
  ) {
    self.name = name
    self.priority = priority
    self.qos = qos
    self.dependencies = dependencies
    self.conditions = conditions
    self.exclusivity = exclusivity
    self.cancellation = cancellation
    self.timeout = timeout
    self.children = children
    self.barrier = barrier
    self.completion = completion
    self.isAsync = isAsync
    self.work = work
  }

  public var kind: OperationKind {
    if !children.isEmpty { return .group }
    if barrier { return .barrier }
    if !work.blocks.isEmpty { return .block }
    if isAsync || !work.finishes { return .async }
    return .plain
  }
}
