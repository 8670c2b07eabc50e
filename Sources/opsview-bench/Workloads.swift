import Dispatch
import Foundation
import OpsEngine
import OpsEvents

/// The shapes of the live-versus-Foundation benchmark, the same on both sides. Every operation is a
/// no-op, so what is measured is the queue's own bookkeeping.
enum Workload: String, CaseIterable {
  /// Independent operations.
  case flat
  /// Groups of four: `a`; `b` and `c` wait for `a`; `d` waits for `b` and `c`.
  case diamond
  /// One chain: each operation waits for the one added before it.
  case chain

  /// Indices (below `i`) of the operations that operation `i` depends on.
  func dependencies(of i: Int) -> (Int?, Int?) {
    switch self {
    case .flat: return (nil, nil)
    case .chain: return (i > 0 ? i - 1 : nil, nil)
    case .diamond:
      let base = i - i % 4
      switch i % 4 {
      case 0: return (nil, nil)
      case 1, 2: return (base, nil)
      default: return (base + 1, base + 2)
      }
    }
  }
}

/// `count` no-op operations through Foundation's OperationQueue; `nil` is its default (no limit).
func runFoundation(count: Int, maxConcurrent: Int?, workload: Workload = .flat) -> Measurement {
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount =
    maxConcurrent ?? OperationQueue.defaultMaxConcurrentOperationCount
  // Every operation of a chain or diamond, kept so they are released from the last one, outside the
  // timed part: a chain released from its end frees each operation inside the deinit of the one after
  // it, recursively, and 100,000 of them overflow the stack.
  var all: [Operation] = []
  if workload != .flat { all.reserveCapacity(count) }
  defer { while !all.isEmpty { all.removeLast() } }
  let start = DispatchTime.now()
  if workload == .flat {
    for _ in 0..<count { queue.addOperation {} }
  } else {
    // Dependents need the objects of their dependencies: keep the last four.
    var recent: [Operation] = []
    recent.reserveCapacity(4)
    for i in 0..<count {
      let op = BlockOperation {}
      let (a, b) = workload.dependencies(of: i)
      if let a { op.addDependency(recent[a - (i - recent.count)]) }
      if let b { op.addDependency(recent[b - (i - recent.count)]) }
      if recent.count == 4 { recent.removeFirst() }
      recent.append(op)
      all.append(op)
      queue.addOperation(op)
    }
  }
  queue.waitUntilAllOperationsAreFinished()
  let elapsed = seconds(since: start)
  return Measurement(seconds: elapsed, events: 0)
}

/// The same through the live runtime, with a subscriber that receives every event. The names its API
/// needs are built inside the timed part: they are a cost of using it.
func runLive(
  count: Int, maxConcurrent: Int?, lints: Bool = true, workload: Workload = .flat
) -> Measurement {
  let rt = LiveRuntime(lints: lints ? Lints.standard : [])
  let counter = EventCounter()
  rt.subscribe { _ in counter.count += 1 }
  try! rt.addQueue(QueueSpec(name: "q", maxConcurrent: maxConcurrent))
  let noop = LiveWork.sync { _ in }
  let start = DispatchTime.now()
  for i in 0..<count {
    let (a, b) = workload.dependencies(of: i)
    var deps: [String] = []
    if let a { deps.append("op\(a)") }
    if let b { deps.append("op\(b)") }
    try! rt.addOperation(OperationSpec(name: "op\(i)", dependencies: deps), work: noop, on: "q")
  }
  // Returns once every operation finished and every event reached the subscriber.
  guard rt.waitUntilFinished(timeout: 3600) else { fatalError("live runtime did not finish") }
  let elapsed = seconds(since: start)
  precondition(
    counter.count == rt.eventCount, "events were dropped: \(counter.count) of \(rt.eventCount)")
  return Measurement(seconds: elapsed, events: counter.count)
}
