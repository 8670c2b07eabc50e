import OpsEngine
import OpsEvents

extension Projection {
  /// Operation indices per queue (in the projection's queue order) and those of no known queue: the
  /// graphs draw one cluster per queue and the rest beside them.
  func operationsByQueue() -> (byQueue: [[Int]], orphans: [Int]) {
    var byQueue = [[Int]](repeating: [], count: queues.count)
    var orphans: [Int] = []
    for op in operations {
      if let q = index(ofQueue: op.queue) {
        byQueue[q].append(op.index)
      } else {
        orphans.append(op.index)
      }
    }
    return (byQueue, orphans)
  }
}
