import Foundation
import OpsEngine
import OpsEvents
import PropertyBased
import Testing

struct Broke: Error, CustomStringConvertible {
  var description: String { "broke" }
}

/// The same invariants as VirtualPropertyTests, under real concurrency: the interventions are applied by
/// the test thread while earlier operations already run on Dispatch threads.
@Suite struct LivePropertyTests {
  @Test func randomWorkloadsKeepEveryInvariantOnRealThreads() async throws {
    await propertyCheck(count: 40, input: RandomScenario.generator(maxOps: 16)) { scenario in
      let rt = LiveRuntime()
      let log = EventLog(rt)
      let gauge = ConcurrencyGauge()
      for q in scenario.queueSpecs { try rt.addQueue(q) }
      // Timeouts of 5 ms, conditions evaluated in 3 ms, work of up to 60 steps of 0.1 ms (so some time out).
      for (i, spec) in scenario.specs(scale: 0.001).enumerated() {
        let steps = scenario.ops[i].tenths * 3
        let fails = spec.work.fails != nil
        let work = LiveWork.sync { ctx in
          gauge.enter(spec.name)
          defer { gauge.leave() }
          for _ in 0..<steps {
            if ctx.isCancelled { return }
            usleep(100)
          }
          if fails { throw Broke() }
        }
        try rt.addOperation(spec, work: work)
      }
      for i in scenario.ops.indices {
        try rt.enqueue(scenario.name(i), on: scenario.queueName(scenario.ops[i].queue))
        for v in scenario.interventions where v.tenths % scenario.ops.count == i {
          rt.perform(scenario.command(v))
        }
      }
      for c in scenario.releaseEverything { rt.perform(c) }
      let done = rt.waitUntilFinished(timeout: liveTimeout)

      let events = log.events
      let problems = EventInvariants(exclusivity: scenario.exclusivity).violations(in: events)
      // Unfinished only where ProcedureKit deadlocks too (the checker accepts nothing else).
      #expect(done || problems.isEmpty, "\(scenario)")
      #expect(problems.isEmpty, "\(problems.prefix(8).joined(separator: "\n"))\n\(scenario)")
      // A closure runs exactly when its operation published didStart (an immediately cancelled one may be
      // abandoned before its closure even began).
      let started = Set(events.compactMap { if case .didStart(let o) = $0.kind { o } else { nil } })
      let runs = gauge.runs
      for (i, spec) in scenario.specs(scale: 0.001).enumerated() {
        let ran = runs[spec.name] ?? 0
        let immediate = CancellationMode.allCases[scenario.ops[i].mode] == .immediate
        if started.contains(spec.name) {
          #expect(ran == 1 || (immediate && ran == 0), "\(spec.name) ran \(ran) times")
        } else {
          #expect(ran == 0, "\(spec.name) ran without didStart")
        }
      }
    }
  }
}
