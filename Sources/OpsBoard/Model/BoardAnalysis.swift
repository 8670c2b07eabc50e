import OpsEngine

/// The engine's analysis beside the board model: the replica (for "why is it waiting?") and the
/// warning detector, folded from the same events, so a checkpoint of both is that moment exactly.
public struct BoardAnalysis: Sendable {
  public private(set) var replica = EngineReplica()
  public private(set) var detector = WarningDetector()

  public init() {}

  /// Folds one event: the replica first, then the detector looks at it in the updated replica.
  public mutating func apply(_ event: Event) {
    replica.apply(event)
    detector.observe(event, in: replica)
  }

  /// Time-based lints as the clock moves without events.
  public mutating func check(at now: Double) {
    detector.check(at: now, in: replica)
  }

  public var warnings: [WarningDetector.Warning] { detector.warnings }
  public func warnings(for subject: String) -> [WarningDetector.Warning] {
    detector.warnings(for: subject)
  }
  public func whyWaiting(_ operation: String) -> String? { replica.whyWaiting(operation) }
}
