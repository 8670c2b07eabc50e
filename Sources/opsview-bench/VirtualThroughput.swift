import Dispatch
import OpsEngine
import OpsEvents

/// At least `events` events through the virtual runtime: small operations on several queues, a third of
/// them depending on an earlier one, run to completion. Measures building and running together.
func runVirtual(events target: Int) -> Measurement {
  let rt = VirtualRuntime(recording: false)
  let counter = EventCounter()
  rt.subscribe { _ in counter.count += 1 }
  let queues = 4
  // Nine events per plain operation (added, 5 states, didStart, willFinish, didFinish).
  let count = target / 9 + 1
  let start = DispatchTime.now()
  for q in 0..<queues { try! rt.addQueue(QueueSpec(name: "q\(q)", maxConcurrent: 2 + q)) }
  var specs: [OperationSpec] = []
  specs.reserveCapacity(count)
  for i in 0..<count {
    let deps = i % 3 == 0 && i >= 10 ? ["op\(i - 10)"] : []
    specs.append(
      OperationSpec(
        name: "op\(i)", dependencies: deps, work: WorkScript(duration: Double(i % 7 + 1) / 100)))
  }
  try! rt.addOperations(specs)
  for i in 0..<count { try! rt.enqueue("op\(i)", on: "q\(i % queues)") }
  rt.run()
  let elapsed = seconds(since: start)
  precondition(counter.count == rt.eventCount && counter.count >= target)
  return Measurement(seconds: elapsed, events: counter.count)
}
