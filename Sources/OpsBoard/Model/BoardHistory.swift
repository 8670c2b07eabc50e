/// Copies of the model taken as events are folded, so the board at any earlier moment is rebuilt by
/// folding a bounded number of events onto the nearest copy (time travel). The model is a value type
/// whose arrays share storage until written, so each checkpoint costs about one model's size; spacing
/// them at least `perOperation` events per operation keeps all of them together proportional to the
/// number of events, like the log.
public struct BoardHistory: Sendable {
  public let interval: Int
  public let perOperation: Int
  /// Models in increasing `lastSeq`, starting with the empty model.
  public private(set) var checkpoints: [BoardModel] = [BoardModel()]
  private var next: Int

  public init(interval: Int = 1024, perOperation: Int = 4) {
    self.interval = max(1, interval)
    self.perOperation = max(0, perOperation)
    next = self.interval
  }

  /// Call after each event is folded.
  public mutating func record(_ model: BoardModel) {
    guard model.lastSeq >= next else { return }
    checkpoints.append(model)
    next = model.lastSeq + max(interval, perOperation * model.operations.count)
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
  public func model(afterEvents count: Int, log: [LogEntry]) -> BoardModel {
    let n = min(max(0, count), log.count)
    var model = checkpoints[checkpointIndex(atOrBefore: n)]
    for entry in log[model.lastSeq..<n] { model.apply(entry.event) }
    return model
  }
}
