/// Copies of the model every `interval` events, so the board at any earlier moment is rebuilt by
/// folding at most `interval` events onto the nearest copy (time travel). The model is a value type
/// whose arrays share storage until written, so a checkpoint costs one copy of what changes after it.
public struct BoardHistory: Sendable {
  public let interval: Int
  /// Checkpoint i is the model after exactly i × interval events.
  public private(set) var checkpoints: [BoardModel] = [BoardModel()]

  public init(interval: Int = 1024) { self.interval = max(1, interval) }

  /// Call after each event is folded.
  public mutating func record(_ model: BoardModel) {
    if model.lastSeq == checkpoints.count * interval { checkpoints.append(model) }
  }

  /// The model after the first `count` events of `log` (the entries of the same fold, in order).
  public func model(afterEvents count: Int, log: [LogEntry]) -> BoardModel {
    let n = min(max(0, count), log.count)
    var model = checkpoints[min(n / interval, checkpoints.count - 1)]
    for entry in log[model.lastSeq..<n] { model.apply(entry.event) }
    return model
  }
}
