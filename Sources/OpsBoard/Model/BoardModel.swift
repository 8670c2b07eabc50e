import OpsEngine
import OpsEvents

/// What the board shows: the engine's projection of the events revealed so far, plus the newest log
/// entries for the log pane. The board adds no state of its own here (selection, scroll and layout
/// live in `BoardUIState`), and infers nothing: causes and warnings come in the events. A value type,
/// so a copy taken at any point is that moment exactly (checkpoints for time travel).
public struct BoardModel: Sendable, Equatable {
  /// How many of the newest log entries the model keeps for the log pane; the full log is kept by
  /// whoever folds (it is append-only, so a model at event n shows its first n entries).
  public static let recentLogCapacity = 256

  /// The one fold of the events (OpsEngine).
  public private(set) var projection = Projection()
  private var recent: [LogEntry] = []
  private var recentHead = 0

  public init() {}

  // MARK: - The projection, as the panes read it

  public var queues: [QueueInfo] { projection.queues }
  public var operations: ChunkedArray<OperationInfo> { projection.operations }
  public var cycles: [[String]] { projection.cycles }
  public var warnings: [WarningInfo] { projection.warnings }
  public var now: Double { projection.now }
  public var lastSeq: Int { projection.lastSeq }
  public var version: Int { projection.version }
  public var structureVersion: Int { projection.structureVersion }
  public var longestOperationName: Int { projection.longestOperationName }
  public var longestQueueName: Int { projection.longestQueueName }
  public var unfinishedCount: Int { projection.unfinishedCount }

  public func queue(named name: String) -> QueueInfo? { projection.queue(named: name) }
  public func operation(named name: String) -> OperationInfo? {
    projection.operation(named: name)
  }
  public func index(ofOperation name: String) -> Int? { projection.index(ofOperation: name) }
  public func index(ofQueue name: String) -> Int? { projection.index(ofQueue: name) }
  public func dependencyStates(of name: String) -> [(name: String, state: OperationState?)] {
    projection.dependencyStates(of: name)
  }
  public func dependentStates(of name: String) -> [(name: String, state: OperationState?)] {
    projection.dependentStates(of: name)
  }
  /// (finished, total) dependencies: the `✓`/`…` marks of the table.
  public func dependencyProgress(of row: OperationInfo) -> (finished: Int, total: Int) {
    (row.finishedDependencies, row.dependencies.count)
  }
  public func warnings(about subject: String) -> [WarningInfo] {
    projection.warnings(about: subject)
  }
  public func whyWaiting(_ operation: String, missedEvents: Bool = false) -> String? {
    projection.whyWaiting(operation, missedEvents: missedEvents)
  }

  // MARK: - The log pane

  /// The newest log entries, oldest first (at most `recentLogCapacity`).
  public var recentLog: [LogEntry] {
    recent.count < Self.recentLogCapacity
      ? recent : Array(recent[recentHead...] + recent[..<recentHead])
  }

  /// The `n` newest entries that say something new, oldest first: observer bookkeeping (didStart,
  /// willFinish, didFinish, finishing → finished) is left to the full log. Looks back at most
  /// `recentLogCapacity` entries.
  public func newestTellingLog(_ n: Int) -> [LogEntry] {
    var out: [LogEntry] = []
    var back = 1
    while out.count < n && back <= recent.count {
      let e = recent[(recentHead - back + recent.count * 2) % recent.count]
      if !e.isBookkeeping { out.append(e) }
      back += 1
    }
    return out.reversed()
  }

  /// The `n` newest log entries, oldest first, without copying the rest.
  public func newestLog(_ n: Int) -> [LogEntry] {
    let count = min(max(0, n), recent.count)
    return (0..<count).map { i in
      let back = count - i  // 1 is the newest
      return recent[(recentHead - back + recent.count * 2) % recent.count]
    }
  }

  // MARK: - Folding

  /// Moves the clock without an event (time passes between events while playing).
  public mutating func advanceClock(to time: Double) {
    projection.advanceClock(to: time)
  }

  /// Folds one event and returns its log entry.
  @discardableResult
  public mutating func apply(_ event: Event) -> LogEntry {
    projection.apply(event)
    let entry = LogEntry(event: event)
    if recent.count < Self.recentLogCapacity {
      recent.append(entry)
    } else {
      recent[recentHead] = entry
      recentHead = (recentHead + 1) % Self.recentLogCapacity
    }
    return entry
  }

  /// Folds the entries of a log, in order: the same as applying each, but only the newest of them
  /// go through the log pane's ring (a seek folds thousands).
  mutating func fold(_ entries: ArraySlice<LogEntry>) {
    let ringed = max(entries.startIndex, entries.endIndex - Self.recentLogCapacity)
    for entry in entries[..<ringed] { projection.apply(entry.event) }
    for entry in entries[ringed...] { apply(entry.event) }
  }

  public static func == (a: BoardModel, b: BoardModel) -> Bool {
    a.projection == b.projection && a.recentLog == b.recentLog
  }
}
