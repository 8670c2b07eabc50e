import OpsEvents

/// What an operation does on the live runtime: real closures on Dispatch threads.
public enum LiveWork: Sendable {
  /// Plain work. A thrown error becomes the operation's error. Cooperative work polls
  /// `context.isCancelled` and returns early.
  case sync(@Sendable (WorkContext) throws -> Void)
  /// An async operation: finished when `finish` is called with its errors (once; later calls are
  /// ignored), or never if it never is.
  case async(@Sendable (WorkContext, _ finish: @escaping @Sendable ([String]) -> Void) -> Void)
  /// A block operation: the blocks run concurrently; it finishes when all of them have returned.
  case blocks([@Sendable (WorkContext) -> Void])
  /// No work: a group (its children are the work) or an operation that finishes as soon as it starts.
  case none
}

/// Decides a scripted condition on the live runtime; runs on a Dispatch thread. The result is before
/// negation (the engine applies `negated`).
public typealias LiveCondition = @Sendable () -> (ConditionResult, String?)

/// Handed to an operation's work while it executes.
public final class WorkContext: @unchecked Sendable {
  /// The operation's name.
  public let operation: String
  let id: Int
  private let runtime: LiveRuntime
  /// Guarded by `runtime.flagLock`, shared by all contexts so a context costs one allocation.
  @exclusivity(unchecked) private var cancelRequested = false
  /// When the work first saw `isCancelled` true (the cause of its finish says it noticed).
  @exclusivity(unchecked) private var noticedAt: Double?

  init(runtime: LiveRuntime, operation: String, id: Int) {
    self.runtime = runtime
    self.operation = operation
    self.id = id
  }

  /// True once the engine asks the work to stop: the operation was cancelled (cooperative mode) or was
  /// already finished without waiting for it (immediate mode). Never set for `ignored` operations, whose
  /// work by definition does not look.
  public var isCancelled: Bool {
    runtime.flagLock.lock()
    defer { runtime.flagLock.unlock() }
    if cancelRequested && noticedAt == nil { noticedAt = runtime.elapsed }
    return cancelRequested
  }

  var noticedCancelAt: Double? {
    runtime.flagLock.lock()
    defer { runtime.flagLock.unlock() }
    return noticedAt
  }

  func requestCancel() {
    runtime.flagLock.lock()
    cancelRequested = true
    runtime.flagLock.unlock()
  }

  /// Adds an already declared operation to this operation's queue (a group's: to its inner queue).
  /// False when nothing happened: unknown or already enqueued, or this operation is no longer executing.
  @discardableResult
  public func produce(_ name: String) -> Bool { runtime.produce(from: id, name) }
}
