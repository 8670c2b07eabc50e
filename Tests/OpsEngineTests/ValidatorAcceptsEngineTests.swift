import Foundation
import OpsEngine
import OpsEvents
import OpsInput
import PropertyBased
import Testing

/// The validator of outside streams (`EventStreamValidator`) refuses what the engine could not have
/// sent; it must accept everything the engine does send, on either runtime, or a recording of a
/// real run could not be replayed.
@Suite struct ValidatorAcceptsEngineTests {
  static func refusal(_ events: [Event]) -> String? {
    var validator = EventStreamValidator()
    for event in events {
      if let why = validator.check(event) { return "event \(event.seq) \(event.kind.type): \(why)" }
    }
    return nil
  }

  @Test func everyRandomVirtualRunPasses() async {
    await propertyCheck(count: 300, input: RandomScenario.generator(maxOps: 20)) { scenario in
      let rt = try scenario.runVirtual()
      let why = Self.refusal(rt.events)
      #expect(why == nil, "\(why ?? "")\n\(scenario)")
    }
  }

  @Test func everyRandomLiveRunPasses() async {
    await propertyCheck(count: 40, input: RandomScenario.generator(maxOps: 12)) { scenario in
      let rt = LiveRuntime()
      let log = EventLog(rt)
      for q in scenario.queueSpecs { try rt.addQueue(q) }
      for spec in scenario.specs(scale: 0.001) {
        try rt.addOperation(spec, work: .sync { _ in usleep(200) })
      }
      for i in scenario.ops.indices {
        try rt.enqueue(scenario.name(i), on: scenario.queueName(scenario.ops[i].queue))
        for v in scenario.interventions where v.tenths % scenario.ops.count == i {
          rt.perform(scenario.command(v))
        }
      }
      for c in scenario.releaseEverything { rt.perform(c) }
      #expect(rt.waitUntilFinished(timeout: liveTimeout), "\(scenario)")
      let why = Self.refusal(log.events)
      #expect(why == nil, "\(why ?? "")\n\(scenario)")
    }
  }
}
