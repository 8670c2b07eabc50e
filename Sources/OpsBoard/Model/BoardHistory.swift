import OpsEngine
import OpsEvents

/// Copies of the model taken as events are folded, so the board at any earlier moment is rebuilt by
/// folding a bounded number of events onto the nearest copy (time travel).
///
/// The model is a value type whose collections share storage until written. The operation records
/// are kept in chunks (`ChunkedArray`), so a checkpoint shares every chunk the fold has not written
/// since, but it comes to own the name index and the queues' member sets (rewritten as operations
/// are added and finish) and the chunks of the operations active meanwhile. Spacing them by an
/// estimate of `bytesPerOperation` at `bytesPerEvent` (all checkpoints together stay a fraction
/// of the log) measured lowest when it was chosen (50k generated: 304 MB peak against 511 MB at 48
/// bytes an operation, whose closer checkpoints each copied those tables), never more than
/// `maximumSpacing` events apart, which bounds what a seek folds.
struct BoardHistory: Sendable {
  /// Events between checkpoints at least.
  static let minimumSpacing = 1024
  /// Events between checkpoints at most: a seek folds at most this many (~0.45 µs each at 50k
  /// operations, so ~20 ms).
  static let maximumSpacing = 45_000
  /// Checkpoint bytes allowed per event folded (a log entry is 72 bytes).
  static let bytesPerEvent = 48
  /// What a checkpoint is taken to cost per operation (see above).
  static let bytesPerOperation = 384

  /// Models in increasing `lastSeq`, starting with the empty model.
  private(set) var checkpoints: [BoardModel] = [BoardModel()]
  private var next = minimumSpacing

  /// Events after a checkpoint of `model` before the next one.
  static func spacing(after model: BoardModel) -> Int {
    let bytes = model.operations.count * bytesPerOperation
    return min(max(minimumSpacing, bytes / bytesPerEvent), maximumSpacing)
  }

  /// Call after each event is folded.
  mutating func record(_ model: BoardModel) {
    guard model.lastSeq >= next else { return }
    checkpoints.append(model)
    next = model.lastSeq + Self.spacing(after: model)
  }

  private func checkpointIndex(atOrBefore n: Int) -> Int {
    var lo = 0
    var hi = checkpoints.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if checkpoints[mid].lastSeq <= n { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// How many events the nearest checkpoint at or before event `n` has folded.
  func checkpointSeq(atOrBefore n: Int) -> Int {
    checkpoints[checkpointIndex(atOrBefore: n)].lastSeq
  }

  /// The model after the first `count` events of `log` (the entries of the same fold, in order).
  func model(afterEvents count: Int, log: [LogEntry]) -> BoardModel {
    let n = min(max(0, count), log.count)
    var model = checkpoints[checkpointIndex(atOrBefore: n)]
    model.fold(log[model.lastSeq..<n])
    return model
  }
}
