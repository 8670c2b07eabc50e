import OpsEngine
import OpsEvents

/// Builds a virtual runtime from queues and operations; all operations are enqueued at time 0 in order.
func makeRuntime(
  queues: [QueueSpec] = [QueueSpec(name: "q")], operations: [(OperationSpec, String)],
  enqueue: Bool = true
) throws -> VirtualRuntime {
  let rt = VirtualRuntime()
  for q in queues { try rt.addQueue(q) }
  try rt.addOperations(operations.map(\.0))
  if enqueue { for (op, q) in operations { try rt.enqueue(op.name, on: q) } }
  return rt
}

extension VirtualRuntime {
  /// Names of operations in the order they published `didStart`.
  var startOrder: [String] {
    events.compactMap { if case .didStart(let o) = $0.kind { o } else { nil } }
  }
  var finishOrder: [String] {
    events.compactMap { if case .didFinish(let o, _, _) = $0.kind { o } else { nil } }
  }
  func states(of op: String) -> [OperationState] {
    events.compactMap { if case .state(op, _, let to, _) = $0.kind { to } else { nil } }
  }
  func time(of predicate: (EventKind) -> Bool) -> Double? {
    events.first { predicate($0.kind) }?.time
  }
}

func op(_ name: String, work: Double = 1, priority: QueuePriority? = nil, deps: [String] = [])
  -> OperationSpec
{
  OperationSpec(
    name: name, priority: priority, dependencies: deps, work: WorkScript(duration: work))
}
