import OpsEngine
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
          for _ in 0..<100 where !context.isCancelled { /* one slice of real work */  }
        },
        on: "downloads")
    }
    try runtime.addOperation(
      OperationSpec(name: "verify", dependencies: ["fetch a.zip", "fetch b.zip", "fetch c.zip"]),
      work: .sync { _ in throw ChecksumMismatch() },
      on: "downloads")

    runtime.perform(.cancel(operation: "fetch c.zip"))  // cooperative: its work sees isCancelled
    #expect(runtime.waitUntilFinished(timeout: liveTimeout))
    #expect(runtime.errors(of: "verify") == ["ChecksumMismatch()"])
    #expect(runtime.isCancelled("fetch c.zip"))
    #expect(log.finishOrder.last == "verify")
  }
}
