import OpsEngine
import OpsEvents
import OpsInput
import Testing

@testable import OpsScenarios

/// Every built-in scenario's run, as `play --record` would write it, passes the validator of
/// outside streams: a recording of any lesson can be replayed.
@Suite struct BuiltInStreamsPassTheValidatorTests {
  @Test(arguments: Catalog.names)
  func theRunPasses(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let runtime = scenario.makeRuntime()
    runtime.run(until: 100_000)
    var validator = EventStreamValidator()
    for event in runtime.events {
      let why = validator.check(event)
      #expect(why == nil, "\(name): event \(event.seq) \(event.kind.type): \(why ?? "")")
      if why != nil { return }
    }
  }
}
