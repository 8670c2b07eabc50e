import Foundation
import OpsEngine
import OpsEvents

// Release build: `swift run -c release opsview-bench`. Each figure is the median of three runs.

func median(_ runs: Int = 3, _ body: () -> Measurement) -> Measurement {
  let all = (0..<runs).map { _ in body() }.sorted { $0.seconds < $1.seconds }
  return all[runs / 2]
}

func pad(_ s: String, _ width: Int) -> String {
  s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}
func fmt(_ d: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", d) }
func rate(_ n: Int, _ s: Double) -> String { String(format: "%.0f", Double(n) / s) }

let operations = 100_000

// `opsview-bench run|compare ...`: the fair live-versus-Foundation harness (see `BenchOptions.usage`).
// `opsview-bench live|foundation|virtual [limit]`: one run of one side, for profiling.
// `opsview-bench probe [rounds] [batches] [work-µs]`: the probe's overhead on the example's
// workload, plain OperationQueue vs ObservedOperationQueue, alternating processes.
// `opsview-bench export`: only the export benchmark; `export-once [FORMAT]`: one run of the
// generated 50,000-operation scenario and one format, for profiling.
let arguments = Array(CommandLine.arguments.dropFirst())
if let command = arguments.first, command == "run" || command == "compare" {
  do {
    let options = try BenchOptions(arguments.dropFirst())
    if command == "compare" {
      try compare(options)
    } else {
      guard options.sides.count == 1, options.workloads.count == 1, options.counts.count == 1,
        options.limits.count == 1
      else { throw BenchUsageError("run measures one side, workload, size and limit") }
      runSide(
        options.sides[0], workload: options.workloads[0], count: options.counts[0],
        limit: options.limits[0])
    }
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
  }
}
if arguments.first == "generate" {
  // `opsview-bench generate N`: the generated scenario of N operations, as a file, on stdout.
  guard arguments.count == 2, let n = Int(arguments[1]), (4...10_000_000).contains(n) else {
    FileHandle.standardError.write(Data("usage: opsview-bench generate N (4 to 10000000)\n".utf8))
    exit(2)
  }
  print(largeScenarioText(operations: n), terminator: "")
  exit(0)
}
if arguments.first == "analysis" {
  let sizes = arguments.count > 1 ? arguments[1].split(separator: ",").compactMap { Int($0) } : []
  do {
    try analysisBenchmark(sizes: sizes.isEmpty ? [1_000, 10_000, 50_000] : sizes)
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
  }
  exit(0)
}
if arguments.first == "chain" {
  let n = arguments.count > 1 ? Int(arguments[1]) : 100_000
  guard let n, (2...10_000_000).contains(n) else {
    FileHandle.standardError.write(Data("usage: opsview-bench chain [N] (2 to 10000000)\n".utf8))
    exit(2)
  }
  chainBenchmark(count: n)
  exit(0)
}
if arguments.first == "frames" {
  // `opsview-bench frames`: only the board's rendering benchmark.
  renderingBenchmark()
  exit(0)
}
if arguments.first == "export" {
  exportBenchmark()
  exit(0)
}
if arguments.first == "export-once" {
  exportOnce(format: arguments.count > 1 ? arguments[1] : nil)
  exit(0)
}
if arguments.first == "probe" || arguments.first == "probe-once" {
  let numbers = arguments.dropFirst(arguments.first == "probe" ? 1 : 2).compactMap { Int($0) }
  var settings = WorkloadSettings()
  if arguments.first == "probe" {
    if numbers.count > 1 { settings.batches = numbers[1] }
    if numbers.count > 2 { settings.workMicros = numbers[2] }
    probeOverheadBenchmark(rounds: numbers.first ?? 7, settings)
  } else {
    if numbers.count > 0 { settings.batches = numbers[0] }
    if numbers.count > 1 { settings.workMicros = numbers[1] }
    guard arguments.count > 1, let side = ProbeSide(rawValue: arguments[1]) else {
      fatalError("probe-once plain|observed|observed+viewer [batches] [work-µs]")
    }
    probeWorkloadOnce(side, settings)
  }
  exit(0)
}
if let side = arguments.first {
  let limit = arguments.count > 1 ? Int(arguments[1]) : nil
  let m: Measurement
  switch side {
  case "live": m = runLive(count: operations, maxConcurrent: limit)
  case "live-nolints": m = runLive(count: operations, maxConcurrent: limit, lints: false)
  case "foundation": m = runFoundation(count: operations, maxConcurrent: limit)
  default: m = runVirtual(events: 1_000_000)
  }
  print("\(side): \(fmt(m.seconds)) s, \(m.events) events")
  exit(0)
}
print("Live runtime vs Foundation.OperationQueue: \(operations) no-op operations (median of 3)")
print(
  pad("maxConcurrent", 15) + pad("runtime", 22) + pad("seconds", 10) + pad("ops/s", 12)
    + "events delivered")
for limit in [4, nil] as [Int?] {
  let label = limit.map(String.init) ?? "unlimited"
  let foundation = median { runFoundation(count: operations, maxConcurrent: limit) }
  let live = median { runLive(count: operations, maxConcurrent: limit) }
  print(
    pad(label, 15) + pad("Foundation", 22) + pad(fmt(foundation.seconds), 10)
      + pad(rate(operations, foundation.seconds), 12) + "-")
  print(
    pad(label, 15) + pad("LiveRuntime", 22) + pad(fmt(live.seconds), 10)
      + pad(rate(operations, live.seconds), 12) + String(live.events))
  print(
    pad("", 15) + "ratio (Foundation time / live time): "
      + fmt(foundation.seconds / live.seconds, 2))
}

print("")
let virtual = median { runVirtual(events: 1_000_000) }
print(
  "Virtual runtime: \(virtual.events) events in \(fmt(virtual.seconds)) s = \(rate(virtual.events, virtual.seconds)) events/s"
)
renderingBenchmark()
exportBenchmark()
