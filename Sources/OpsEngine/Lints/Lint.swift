import OpsEvents

/// A lint: something that went wrong or will, detected from the projection and published as a
/// `warning` event at the time of the event that raised it (tokio-console's `Warn`). Each lint is one
/// file in this folder and one line in `Lints.standard`. On the live runtime the projection a lint
/// reads keeps no history of visits or observer calls (`Projection.keepsHistory`), no member sets
/// of queues (`Projection.keepsMembers`) and no dependents (`Projection.keepsDependents`): read
/// states, times, counts and an operation's own dependencies. The standard lints give their texts as
/// computed properties: stored, three strings make a lint larger than an existential's inline
/// buffer, and each call of a mutating `check` through `any Lint` then checks its box for
/// uniqueness, on every event of the live runtime's delivery. A finished dependency that succeeded
/// may be missing there (`LintsForgetting`): treat a dependency not found as finished and succeeded.
public protocol Lint: Sendable {
  /// The warning's kind in events (`ignoresCancellation`).
  var kind: String { get }
  /// What it detects, in one line.
  var summary: String { get }
  /// What to do about it: the sentence that ends every message of this kind.
  var teaching: String { get }
  /// The event types after which `check(after:in:_:)` can find or note anything;
  /// after any other it is not called. nil (the default): after every event.
  var eventTypes: Set<EventType>? { get }
  /// Of `state` events, those entering or leaving one of these states are the ones it can find or
  /// note anything after; nil (the default): every transition.
  var states: Set<OperationState>? { get }
  /// Looks at the projection right after `event` was folded into it.
  mutating func check(after event: Event, in projection: Projection, _ out: inout LintOutput)
  /// The earliest time this lint must look again though no event happens (time-based lints), or nil.
  /// `projection` is the state now: a lint may drop deadlines it no longer needs by reading it.
  mutating func nextDeadline(in projection: Projection) -> Double?
  /// A deadline it asked for is due (the projection's clock is `time`).
  mutating func check(at time: Double, in projection: Projection, _ out: inout LintOutput)
}

extension Lint {
  public var eventTypes: Set<EventType>? { nil }
  public var states: Set<OperationState>? { nil }
  public mutating func nextDeadline(in projection: Projection) -> Double? { nil }
  public mutating func check(at time: Double, in projection: Projection, _ out: inout LintOutput) {}
}

/// What a lint found: subjects with the specifics of each finding. The publisher raises each
/// (kind, subject) once.
public struct LintOutput {
  public private(set) var findings: [(subject: String, detail: String)] = []

  public init() {}

  public mutating func raise(_ subject: String, _ detail: String) {
    findings.append((subject, detail))
  }
}

/// The lints every runtime runs unless told otherwise.
public enum Lints {
  public static var standard: [any Lint] {
    [
      DependencyCycleLint(), ConditionFailedLint(), CancelledTooLateLint(),
      RanAfterFailedDependencyLint(), IgnoresCancellationLint(), NeverFinishesLint(),
      StarvedLint(), SuspendedQueueIdleLint(), CancelledOnSuspendedQueueLint(), SlotDeadlockLint(),
    ]
  }
}
