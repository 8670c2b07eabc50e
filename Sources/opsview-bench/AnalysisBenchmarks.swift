import Dispatch
import Foundation
import OpsBoard
import OpsScenarios

/// `opsview trace` and `opsview check` on generated scenario files (the release `opsview` next to this
/// executable, one process per run, median of 3), and board seeks and frames in this process, at each
/// size. `opsview-bench analysis [SIZES]`, sizes comma-separated (default 1000,10000,50000).
func analysisBenchmark(sizes: [Int]) throws {
  let opsview = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("opsview")
  guard FileManager.default.isExecutableFile(atPath: opsview.path) else {
    throw BenchUsageError("build opsview first (swift build -c release --product opsview)")
  }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "opsview-bench-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  print("Analysis on generated scenarios (median of 3; load \(loadAverage()))")
  print(
    pad("ops", 9) + pad("file MB", 9) + pad("check s", 9) + pad("trace s", 9) + pad("jsonl s", 9)
      + pad("seek ms", 9) + pad("seek max", 10) + pad("frame ms", 10) + "load")
  for size in sizes {
    let file = directory.appendingPathComponent("generated-\(size).yaml")
    let text = largeScenarioText(operations: size)
    try text.write(to: file, atomically: true, encoding: .utf8)
    let cli = { (args: [String]) in
      medianSeconds { runQuietly(opsview, args + [file.path]) }
    }
    let check = cli(["check"])
    let trace = cli(["trace", "--format", "text"])
    let jsonl = cli(["trace", "--format", "jsonl"])
    let (seek, seekMax, frame) =
      size <= 50_000 ? boardTimes(largeScenario(operations: size)) : (.nan, .nan, .nan)
    print(
      pad(String(size), 9) + pad(fmt(Double(text.utf8.count) / 1e6, 1), 9) + pad(fmt(check), 9)
        + pad(fmt(trace), 9) + pad(fmt(jsonl), 9) + pad(fmt(seek, 1), 9) + pad(fmt(seekMax, 1), 10)
        + pad(fmt(frame, 2), 10) + loadAverage())
  }
}

/// Runs the command with its output discarded; a failure stops the benchmark.
func runQuietly(_ executable: URL, _ arguments: [String]) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { fatalError("cannot run \(executable.path): \(error)") }
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    fatalError("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed")
  }
}

/// A paused board played to the end: the median and worst milliseconds of seeking to 11 evenly spaced
/// positions (in a shuffled order), and the milliseconds of a 200×60 frame.
func boardTimes(_ scenario: Scenario) -> (seek: Double, worst: Double, frame: Double) {
  let session = BoardSession(
    title: scenario.title, notes: scenario.notes, paused: true,
    makeRuntime: { scenario.makeRuntime() })
  session.advance(by: 1e6)
  let end = session.position
  var times: [Double] = []
  for k in [5, 0, 10, 3, 7, 1, 9, 2, 8, 4, 6] {
    let start = DispatchTime.now()
    session.seek(toEvent: end * k / 10)
    _ = session.render(width: 200, height: 60, ascii: false)
    times.append(seconds(since: start) * 1000)
  }
  session.seek(toEvent: end / 2)
  return (middle(times), times.max()!, frameMilliseconds(session))
}
