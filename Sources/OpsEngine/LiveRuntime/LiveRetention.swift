import OpsEvents

/// How many finished operations a `LiveRuntime` remembers (tokio-console's `retain_for`, counted in
/// operations rather than time, so memory stays bounded however fast they finish). A finished
/// operation is retired once it is neither among the `count` most recently finished nor among the
/// `count` most recently created, and nothing that depends on it is unfinished: its name is forgotten,
/// so `state(of:)` gives nil, a command names the retention in its rejection, and naming it as a new
/// dependency throws `unknownOperation`. Events are not affected: every event is still
/// published, and a subscriber's own projection (the board's) keeps what it was sent. The lints'
/// projection forgets a retired operation too, once its events are published: a lint looking it up
/// by name finds nothing, as the runtime does (the standard lints only look up operations that are
/// unfinished or a dependency of an unfinished one, which are never retired). With a bounded
/// retention it forgets sooner one that succeeded and that nothing unfinished needs
/// (`LintsForgetting`).
public struct LiveRetention: Sendable, Equatable {
  /// Finished operations kept before the oldest are retired; nil keeps every one.
  public let finishedKept: Int?

  /// Keeps the `count` most recently finished operations (0: retire each as soon as possible).
  public init(keepingFinished count: Int) throws {
    guard count >= 0 else {
      throw EngineError.invalidNumber(
        "a retention of \(count) finished operations: it must be 0 or more")
    }
    finishedKept = count
  }

  private init(unbounded: Void) { finishedKept = nil }

  /// Remembers every operation (memory grows with every operation ever added).
  public static let all = LiveRetention(unbounded: ())
  /// The default: the 10,000 most recently finished operations.
  public static let standard = try! LiveRetention(keepingFinished: 10_000)
}
