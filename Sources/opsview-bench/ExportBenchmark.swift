import Dispatch
import OpsEngine
import OpsEvents
import OpsExport
import OpsScenarios

/// Seconds to run a scenario on the virtual runtime and to write each export format from it, for the
/// built-in stress scenario and a generated 50,000-operation one (median of 3 each). An export by
/// `opsview export` costs the run plus one format.
func exportBenchmark() {
  print("\nExports: run the scenario on the virtual clock, then write each format (median of 3)")
  var cases: [Scenario] = []
  if let stress = Catalog.named("stress") { cases.append(stress) }
  cases.append(largeScenario(operations: 50_000))
  for scenario in cases {
    var source: ExportSource?
    let run = medianSeconds {
      let runtime = scenario.makeRuntime()
      runtime.run()
      source = ExportSource(
        id: scenario.id, title: scenario.title, lesson: scenario.notes, runtime: runtime)
    }
    guard let source else { continue }
    print(
      "\(scenario.id): \(source.projection.operations.count) operations, \(source.events.count) events, "
        + "run \(fmt(run)) s")
    print("  " + pad("format", 10) + pad("write s", 10) + pad("run + write s", 15) + "bytes")
    for format in ExportFormat.allCases {
      var bytes = 0
      let write = medianSeconds { bytes = (try? format.render(source))?.utf8.count ?? 0 }
      print(
        "  " + pad(format.rawValue, 10) + pad(fmt(write), 10) + pad(fmt(run + write), 15)
          + String(bytes))
    }
  }
}

func medianSeconds(_ runs: Int = 3, _ body: () -> Void) -> Double {
  var all: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now()
    body()
    all.append(seconds(since: start))
  }
  return all.sorted()[runs / 2]
}

/// One run of the generated 50,000-operation scenario and one export, with their times.
func exportOnce(format name: String?) {
  let scenario = largeScenario(operations: 50_000)
  let runtime = scenario.makeRuntime()
  let start = DispatchTime.now()
  runtime.run()
  print("run: \(fmt(seconds(since: start))) s, \(runtime.eventCount) events")
  guard let name, let format = ExportFormat(rawValue: name) else { return }
  let source = ExportSource(
    id: scenario.id, title: scenario.title, lesson: scenario.notes, runtime: runtime)
  let write = DispatchTime.now()
  let bytes = (try? format.render(source))?.utf8.count ?? 0
  print("\(name): \(fmt(seconds(since: write))) s, \(bytes) bytes")
}
