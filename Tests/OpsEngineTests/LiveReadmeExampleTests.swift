import OpsEngine
import OpsEvents
import Testing

/// The README's live-runtime example, kept compiling and true here (printing replaced by a log).
@Suite struct LiveReadmeExampleTests {
  struct ChecksumMismatch: Error {}

  @Test func theReadmeExampleRunsAsDescribed() throws {
    let runtime = LiveRuntime()
    let log = EventLog(runtime)  // README: runtime.subscribe { event in print(event.jsonLine) }

    try runtime.addQueue(QueueSpec(name: "downloads", maxConcurrent: 2))
    for file in ["a.zip", "b.zip", "c.zip"] {
      try runtime.addOperation(
        OperationSpec(name: "fetch \(file)"),
        work: .sync { context in
          for _ in 0..<100 where !context.isCancelled {
            // one slice of real work
          }
        },
        on: "downloads")
    }
    try runtime.addOperation(
      OperationSpec(name: "verify", dependencies: ["fetch a.zip", "fetch b.zip", "fetch c.zip"]),
      work: .sync { _ in throw ChecksumMismatch() },
      on: "downloads")

    // cooperative: its work sees isCancelled (unless it already finished: the cancel is then too late)
    let cancelOutcome = runtime.perform(.cancel(operation: "fetch c.zip"))
    #expect(runtime.waitUntilFinished(timeout: liveTimeout))
    #expect(runtime.errors(of: "verify") == ["ChecksumMismatch()"])
    // The tiny work may win the race against the cancel; either way the engine must say which happened.
    if cancelOutcome.isApplied {
      #expect(runtime.isCancelled("fetch c.zip"))
    } else {
      #expect(
        cancelOutcome
          == .rejected("fetch c.zip has already finished: cancelling it now is too late"))
      #expect(!runtime.isCancelled("fetch c.zip"))
    }
    #expect(log.finishOrder.last == "verify")
  }
}
