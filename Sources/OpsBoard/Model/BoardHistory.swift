import OpsEngine

/// Copies of the model taken as events are folded, so the board at any earlier moment is rebuilt by
/// folding a bounded number of events onto the nearest copy (time travel).
///
/// The model is a value type whose arrays share storage until written, but the live model writes its
/// operations array after every checkpoint, so each checkpoint keeps a whole array of operation
/// records of its own (~400 bytes each, at the array's capacity): at 50,000 operations a checkpoint
/// is ~25 MB. So they are spaced by that cost: the next comes after the events that pay for it at
/// `bytesPerEvent` (all checkpoints together stay a fraction of the log), but never more than
/// `maximumSpacing` events apart, which bounds what a seek folds.
struct BoardHistory: Sendable {
  /// Events between checkpoints at least.
  static let minimumSpacing = 1024
  /// Events between checkpoints at most: a seek folds at most this many (~0.45 µs each at 50k
  /// operations, so ~20 ms).
  static let maximumSpacing = 45_000
  /// Checkpoint bytes allowed per event folded (a log entry is ~100 bytes).
  static let bytesPerEvent = 48

  /// Models in increasing `lastSeq`, starting with the empty model.
  private(set) var checkpoints: [BoardModel] = [BoardModel()]
  private var next = minimumSpacing

  /// Events after a checkpoint of `model` before the next one.
  static func spacing(after model: BoardModel) -> Int {
    let bytes = model.operations.capacity * MemoryLayout<OperationInfo>.stride
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
