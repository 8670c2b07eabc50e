import OpsEngine
import OpsScenarios
import Testing

/// `trace --explain` tells a line only when it changes, so a line it does not tell again must still
/// be true: at the end of every instant of every built-in scenario, the last line told for each
/// waiting operation is what the projection says (`whyWaiting`, what the board shows).
@Suite struct ExplainedTraceTests {
  @Test(arguments: Catalog.all.map(\.id))
  func theLastLineToldIsStillTrue(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let runtime = scenario.makeRuntime()
    runtime.run()
    var explainer = WaitingExplainer()
    // The projection up to the instant the explainer has just closed.
    var projection = Projection()
    var told: [String: String] = [:]
    var stale: [String] = []
    func compare() {
      for op in projection.operations where !op.name.isEmpty {
        guard let why = projection.whyWaiting(op.name), told[op.name] != why else { continue }
        if stale.count < 5 {
          stale.append(
            "\(projection.now)s \(op.name): told \(told[op.name] ?? "nothing"), is \(why)")
        }
      }
    }
    for event in runtime.events {
      let closing = explainer.lines(before: event)
      for line in closing { told[line.operation] = line.why }
      if projection.lastSeq > 0 && projection.now < event.time { compare() }
      projection.apply(event)
    }
    for line in explainer.finish() { told[line.operation] = line.why }
    compare()
    #expect(stale.isEmpty, "\(stale)")
  }
}
