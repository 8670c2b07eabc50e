import Dispatch
import Foundation
import OpsBoard
import OpsScenarios

/// `opsview trace` and `opsview check` on generated scenario files (the release `opsview` next to this
/// executable, one process per run, median of 3), and board seeks, frames and the worst frame of playing
/// to the end at 1000× in this process, at each size. `opsview-bench analysis [SIZES]`, sizes comma-separated (default 1000,10000,50000).
func analysisBenchmark(sizes: [Int]) throws {
  try withReleaseOpsview { opsview, directory in
    try analysisBenchmark(sizes: sizes, opsview: opsview, directory: directory)
  }
}

private func analysisBenchmark(sizes: [Int], opsview: URL, directory: URL) throws {
  print("Analysis on generated scenarios (median of 3; load \(loadAverage()))")
  print(
    pad("ops", 9) + pad("file MB", 9) + pad("check s", 9) + pad("trace s", 9) + pad("jsonl s", 9)
      + pad("explain", 9) + pad("seek ms", 9) + pad("seek max", 10) + pad("frame ms", 10)
      + pad("play max", 10) + "load"
  )
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
    let explain = cli(["trace", "--format", "text", "--explain"])
    let (seek, seekMax, frame) =
      size <= 50_000 ? boardTimes(largeScenario(operations: size)) : (.nan, .nan, .nan)
    let playMax = size <= 50_000 ? worstPlayFrame(largeScenario(operations: size)).worst : .nan
    print(
      pad(String(size), 9) + pad(fmt(Double(text.utf8.count) / 1e6, 1), 9) + pad(fmt(check), 9)
        + pad(fmt(trace), 9) + pad(fmt(jsonl), 9) + pad(fmt(explain), 9)
        + pad(fmt(seek, 1), 9) + pad(fmt(seekMax, 1), 10)
        + pad(fmt(frame, 2), 10) + pad(fmt(playMax, 1), 10) + loadAverage())
  }
  for size in sizes where size <= 50_000 {
    let play = worstPlayFrame(largeScenario(operations: size))
    print(
      "play \(size) at 1000×: \(play.frames) frames, worst \(fmt(play.worst, 1)) ms, busy "
        + "\(fmt(play.cpu)) s, paced \(fmt(play.wall)) s (load \(loadAverage()))")
  }
  try explainShapesBenchmark(opsview: opsview, directory: directory)
}

/// `opsview-bench shapes`: `explainShapesBenchmark` alone.
func explainShapesBenchmark() throws {
  try withReleaseOpsview(explainShapesBenchmark(opsview:directory:))
}

/// Runs `body` with the release `opsview` beside this executable and a scratch directory, removed
/// afterwards; without that `opsview`, a usage error saying how to build it.
private func withReleaseOpsview(_ body: (_ opsview: URL, _ directory: URL) throws -> Void) throws {
  let opsview = thisExecutable().deletingLastPathComponent().appendingPathComponent("opsview")
  guard FileManager.default.isExecutableFile(atPath: opsview.path) else {
    throw BenchUsageError("build opsview first (swift build -c release --product opsview)")
  }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "opsview-bench-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  try body(opsview, directory)
}

/// The shapes where an instant touches many operations: `opsview trace --format text` with and without
/// `--explain` (median of 3), and on the same files the board's first 200×60 frame (the board made,
/// paused, and drawn), a frame at the middle, the worst frame of playing to the end at 1000×, and
/// `q` (the key handled and the frame after it drawn) at the start and at the middle.
func explainShapesBenchmark(opsview: URL, directory: URL) throws {
  print(
    "Explanations where an instant touches many operations (median of 3; load \(loadAverage()))")
  print(
    pad("shape", 25) + pad("trace s", 9) + pad("explain s", 11) + pad("1st frame ms", 14)
      + pad("cpu ms", 8) + pad("mid frame ms", 14) + pad("play max ms", 13) + pad("q ms", 8)
      + pad("mid q ms", 10) + "load")
  for (name, text) in [
    ("fan-in 10000 (limit 8)", fanInScenarioText(10_000)),
    ("cycle 5000 (limit 2)", cycleScenarioText(5_000)),
    ("barriers 2000 (limit 4)", barrierScenarioText(2_000)),
  ] {
    let file = directory.appendingPathComponent("shape.yaml")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let trace = medianSeconds { runQuietly(opsview, ["trace", "--format", "text", file.path]) }
    let explain = medianSeconds {
      runQuietly(opsview, ["trace", "--format", "text", "--explain", file.path])
    }
    let scenario = try ScenarioLoader.parse(text, file: file.path, defaultID: "shape")
    // Median of 3 fresh boards: the first frame, then `q` on it.
    var firsts: [Double] = []
    var cpus: [Double] = []
    var quits: [Double] = []
    for _ in 0..<3 {
      let start = DispatchTime.now()
      let cpu = threadCPUSeconds()
      let session = playBoard(scenario, paused: true)
      _ = session.render(width: 200, height: 60, ascii: false)
      firsts.append(seconds(since: start) * 1000)
      cpus.append((threadCPUSeconds() - cpu) * 1000)
      quits.append(quitMilliseconds(session))
    }
    let session = playBoard(scenario, paused: true)
    session.advance(by: 1e6)
    session.seek(toEvent: session.position / 2)
    let mid = frameMilliseconds(session)
    let midQuit = quitMilliseconds(session)
    let play = worstPlayFrame(scenario).worst
    print(
      pad(name, 25) + pad(fmt(trace), 9) + pad(fmt(explain), 11) + pad(fmt(middle(firsts), 1), 14)
        + pad(fmt(middle(cpus), 1), 8) + pad(fmt(mid, 2), 14) + pad(fmt(play, 1), 13)
        + pad(fmt(middle(quits), 2), 8)
        + pad(fmt(midQuit, 2), 10) + loadAverage())
  }
}

/// The CPU time this thread has used, in seconds: what a frame costs whatever the machine's load
/// (the wall time on a loaded machine is mostly waiting for a core).
func threadCPUSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// `q` on the board: the key handled and the frame after it drawn, in milliseconds.
func quitMilliseconds(_ session: BoardSession) -> Double {
  let start = DispatchTime.now()
  _ = session.handle(.character("q"))
  _ = session.render(width: 200, height: 60, ascii: false)
  return seconds(since: start) * 1000
}

/// `sink` depends on `n` operations of a queue that runs 8 at a time.
func fanInScenarioText(_ n: Int) -> String {
  var text = "scenario: fan-in\ntitle: \"fan-in\"\nqueues:\n  - {name: q, maxConcurrent: 8}\n"
  text += "operations:\n"
  for i in 0..<n { text += "  - {name: d\(i), queue: q, work: 0.01}\n" }
  text += "  - {name: sink, queue: q, work: 1, dependencies: ["
  text += (0..<n).map { "d\($0)" }.joined(separator: ", ") + "]}\n"
  return text
}

/// `n` operations in one dependency cycle on a queue that runs 2 at a time, broken by a cancel at 1 s.
func cycleScenarioText(_ n: Int) -> String {
  var text = "scenario: cycle\ntitle: \"cycle\"\nqueues:\n  - {name: q, maxConcurrent: 2}\n"
  text += "operations:\n"
  for i in 0..<n {
    text += "  - {name: c\(i), queue: q, work: 0.01, dependencies: [c\((i + 1) % n)]}\n"
  }
  return text + "actions:\n  - {at: 1, cancel: c0}\n"
}

/// `n` operations on a queue that runs 4 at a time, every 50th a barrier.
func barrierScenarioText(_ n: Int) -> String {
  var text = "scenario: barriers\ntitle: \"barriers\"\nqueues:\n  - {name: q, maxConcurrent: 4}\n"
  text += "operations:\n"
  for i in 0..<n {
    text += "  - {name: o\(i), queue: q, work: 0.01\(i % 50 == 49 ? ", barrier: true" : "")}\n"
  }
  return text
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
  let session = playBoard(scenario, paused: true)
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

/// A board playing at the fastest speed from the start to the end, one 200×60 frame per tick, each
/// tick told the real time the last frame took (at least a thirtieth of a second, at most a quarter
/// second more, as the terminal's frame pacing does): the worst milliseconds of one frame's tick
/// and render, how many frames it took, the seconds spent in them, and the seconds the terminal's pacing makes that.
func worstPlayFrame(_ scenario: Scenario) -> (worst: Double, frames: Int, cpu: Double, wall: Double)
{
  let session = playBoard(scenario, speed: 1000)
  session.adaptsFoldBudget = true
  var worst = 0.0
  var frames = 0
  var last = 0.0
  var cpu = 0.0
  var wall = 0.0
  while !session.isOver {
    let start = DispatchTime.now()
    session.tick(elapsed: min(max(last, 1.0 / 30), 1.0 / 30 + 0.25))
    _ = session.render(width: 200, height: 60, ascii: false)
    last = seconds(since: start)
    worst = max(worst, last * 1000)
    frames += 1
    cpu += last
    // The terminal draws a frame every thirtieth of a second, or as soon as a longer one is done.
    wall += max(last, 1.0 / 30)
  }
  return (worst, frames, cpu, wall)
}

/// A board over the scenario as `opsview play` builds it (its runtime does not record events).
func playBoard(_ scenario: Scenario, speed: Double = 1, paused: Bool = false) -> BoardSession {
  let board = BoardScenario(
    title: scenario.title, notes: scenario.notes,
    streaming: { scenario.makeRuntime(recording: false, observer: $0) })
  return BoardSession(board, speed: speed, paused: paused)
}
