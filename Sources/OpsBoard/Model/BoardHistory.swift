/// Copies of the model taken as events are folded, so the board at any earlier moment is rebuilt by
/// folding a bounded number of events onto the nearest copy (time travel). The model is a value type
/// whose arrays share storage until written, so each checkpoint costs about one model's size; spacing
/// them at least one event per operation apart (and never closer than `minimumSpacing`) keeps all of
/// them together proportional to the number of events, like the log.
struct BoardHistory: Sendable {
  /// Events between checkpoints at least: a seek folds at most this many (or one per operation).
  static let minimumSpacing = 1024

  /// Models in increasing `lastSeq`, starting with the empty model.
  private(set) var checkpoints: [BoardModel] = [BoardModel()]
  private var next = minimumSpacing

  /// Call after each event is folded.
  mutating func record(_ model: BoardModel) {
    guard model.lastSeq >= next else { return }
    checkpoints.append(model)
    next = model.lastSeq + max(Self.minimumSpacing, model.operations.count)
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

  /// The model after the first `count` events of `log` (the entries of the same fold, in order).
  func model(afterEvents count: Int, log: [LogEntry]) -> BoardModel {
    let n = min(max(0, count), log.count)
    var model = checkpoints[checkpointIndex(atOrBefore: n)]
    for entry in log[model.lastSeq..<n] { model.apply(entry.event) }
    return model
  }
}
