import Dispatch
import OpsEngine
import OpsEvents

/// `opsview-bench chain [N]`: one dependency chain of N operations (default 100,000), each waiting for
/// the one before, declared head first and tail first, added, enqueued and run on the virtual runtime
/// with the standard lints (median of 3). Issue 10's goal: under a second in either order, linear,
/// no recursion (the cycle search used to recurse on every enqueue).
func chainBenchmark(count: Int) {
  print("A chain of \(count) operations on the virtual runtime (standard lints, median of 3)")
  for tailFirst in [false, true] {
    let m = median { runChain(count: count, tailFirst: tailFirst) }
    print(
      pad(tailFirst ? "tail first" : "head first", 12) + fmt(m.seconds) + " s, \(m.events) events"
    )
  }
}

private func runChain(count: Int, tailFirst: Bool) -> Measurement {
  let start = DispatchTime.now()
  let rt = VirtualRuntime(recording: false)
  try! rt.addQueue(QueueSpec(name: "q"))
  var specs = (0..<count).map {
    OperationSpec(
      name: "o\($0)", dependencies: $0 > 0 ? ["o\($0 - 1)"] : [], work: WorkScript(duration: 0.001))
  }
  if tailFirst { specs.reverse() }
  try! rt.addOperations(specs)
  for s in specs { try! rt.enqueue(s.name, on: "q") }
  rt.run()
  precondition(rt.projection.operations.allSatisfy { $0.state == .finished })
  return Measurement(seconds: seconds(since: start), events: rt.eventCount)
}
