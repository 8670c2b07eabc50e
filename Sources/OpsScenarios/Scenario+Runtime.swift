import OpsEngine
import OpsEvents

extension Scenario {
  /// The names of operations that some group lists as children; their group enqueues them.
  var childNames: Set<String> { Set(operations.flatMap(\.spec.children)) }

  /// A virtual runtime set up to play this scenario from time 0: queues added, every operation
  /// declared, the directly added ones enqueued (now, or scheduled at `addedAt`), actions scheduled.
  /// Produced operations and group children are left to whoever adds them while the scenario runs.
  /// `observer` sees every event from the first one (setting up publishes some), so a writer that
  /// streams them needs no `recording` (a copy of every event: most of the memory of a large run).
  /// `fullProjection`: see `VirtualRuntime.init`.
  public func makeRuntime(
    recording: Bool = true, fullProjection: Bool = true, observer: ((Event) -> Void)? = nil
  ) -> VirtualRuntime {
    let runtime = VirtualRuntime(recording: recording, fullProjection: fullProjection)
    if let observer { runtime.subscribe(replay: false, observer) }
    // A loaded scenario has been validated, so none of these throw; a hand-built one with bad names
    // gets as far as its names allow rather than crashing the board.
    for queue in queues { try? runtime.addQueue(queue) }
    try? runtime.addOperations(operations.map(\.spec))
    let children = childNames
    for op in operations where !op.produced && !children.contains(op.spec.name) {
      try? runtime.enqueue(op.spec.name, on: op.queue, at: op.addedAt > 0 ? op.addedAt : nil)
    }
    for action in actions { runtime.schedule(action.command, at: action.at, source: .action) }
    return runtime
  }
}
