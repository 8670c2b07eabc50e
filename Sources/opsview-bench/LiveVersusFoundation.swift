import Dispatch
import Foundation
import OpsEngine

/// Counts delivered events. Touched only on the runtime's delivery queue, read after `flushDeliveries`.
final class EventCounter: @unchecked Sendable {
  var count = 0
}

struct Measurement {
  var seconds: Double
  var events: Int
}

func seconds(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000_000
}

/// `count` no-op operations through Foundation's OperationQueue; `nil` is its default (no limit).
func runFoundation(count: Int, maxConcurrent: Int?) -> Measurement {
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount =
    maxConcurrent ?? OperationQueue.defaultMaxConcurrentOperationCount
  let start = DispatchTime.now()
  for _ in 0..<count { queue.addOperation {} }
  queue.waitUntilAllOperationsAreFinished()
  return Measurement(seconds: seconds(since: start), events: 0)
}

/// The same through the live runtime, with a subscriber that receives every event.
func runLive(count: Int, maxConcurrent: Int?, lints: Bool = true) -> Measurement {
  let rt = LiveRuntime(lints: lints ? Lints.standard : [])
  let counter = EventCounter()
  rt.subscribe { _ in counter.count += 1 }
  try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: maxConcurrent))
  let noop = LiveWork.sync { _ in }
  let start = DispatchTime.now()
  for i in 0..<count { try! rt.addOperation(OperationSpec(name: "op\(i)"), work: noop, on: "q") }
  // Returns once every operation finished and every event reached the subscriber.
  guard rt.waitUntilFinished(timeout: 600) else { fatalError("live runtime did not finish") }
  let elapsed = seconds(since: start)
  precondition(
    counter.count == rt.eventCount, "events were dropped: \(counter.count) of \(rt.eventCount)")
  return Measurement(seconds: elapsed, events: counter.count)
}
