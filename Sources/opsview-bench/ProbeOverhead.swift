import Foundation
import OpsProbe

// The probe's cost on the example's workload (the photo pipeline: downloads on a queue of two, a
// decode depending on each, a serial UI queue), with short CPU work instead of sleeps so the queues,
// not the sleeping, dominate. Each side runs in its own process, the sides alternate, and every
// side runs `rounds` times: `opsview-bench probe [rounds] [batches] [work-µs]`.

enum ProbeSide: String, CaseIterable {
  /// Foundation's OperationQueue, no probe.
  case plain
  /// ObservedOperationQueue with a running probe and no viewer.
  case observed
  /// ObservedOperationQueue with a viewer connected and draining (in the same process, on its
  /// own thread, as often as the board does).
  case viewer = "observed+viewer"
}

struct WorkloadSettings {
  var batches = 1000
  var workMicros = 100
}

/// Busy work for `micros` microseconds (a CPU-bound stand-in for decoding).
func spin(_ micros: Int) {
  let end = DispatchTime.now().uptimeNanoseconds + UInt64(micros) * 1000
  while DispatchTime.now().uptimeNanoseconds < end {}
}

/// The example's pipeline on queues `make` creates; returns the seconds it took.
func photoPipeline(_ settings: WorkloadSettings, make: (String, Int) -> OperationQueue) -> Double {
  let downloads = make("downloads", 2)
  let decoding = make("decoding", OperationQueue.defaultMaxConcurrentOperationCount)
  let ui = make("ui", 1)
  let work = settings.workMicros
  let start = DispatchTime.now()
  // Not `waitUntilAllOperationsAreFinished`: in swift-corelibs-foundation it can miss the last
  // operation's finish and wait forever (seen here within a thousand batches).
  let shown = DispatchSemaphore(value: 0)
  for batch in 1...settings.batches {
    for i in 1...4 {
      let download = BlockOperation { spin(work) }
      download.name = "download photo\(batch)-\(i)"
      let decode = BlockOperation { spin(work) }
      decode.name = "decode photo\(batch)-\(i)"
      decode.addDependency(download)
      let show = BlockOperation {
        spin(work / 4)
        shown.signal()
      }
      show.name = "show photo\(batch)-\(i)"
      show.addDependency(decode)
      downloads.addOperation(download)
      decoding.addOperation(decode)
      ui.addOperation(show)
    }
    for _ in 1...4 { shown.wait() }
  }
  return seconds(since: start)
}

/// One side, in this process: prints `seconds dropped`.
func probeWorkloadOnce(_ side: ProbeSide, _ settings: WorkloadSettings) {
  switch side {
  case .plain:
    let s = photoPipeline(settings) { name, limit in
      let q = OperationQueue()
      q.name = name
      q.maxConcurrentOperationCount = limit
      return q
    }
    print("\(s) 0")
  case .observed, .viewer:
    let probe = Probe.start(program: "opsview-bench")!
    var client: ProbeClient?
    if side == .viewer {
      let c = ProbeClient(target: .socket(probe.path), retryInterval: 0.01)
      client = c
      Thread.detachNewThread {
        // A board drains its mailbox once a frame (30 a second).
        while true {
          _ = c.drain()
          usleep(33_000)
        }
      }
      while true {
        if case .connected = c.drain().status { break }
        usleep(1000)
      }
    }
    let s = photoPipeline(settings) { ObservedOperationQueue(name: $0, maxConcurrent: $1) }
    print("\(s) \(probe.dropped)")
    client?.close()
    probe.stop()
  }
}

/// Runs every side `rounds` times, alternating, each in a fresh process; prints medians, spreads
/// and the ratios to the plain queue.
func probeOverheadBenchmark(rounds: Int, _ settings: WorkloadSettings) {
  let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  let runtime = FileManager.default.temporaryDirectory
    .appendingPathComponent("opsview-bench-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: runtime) }
  print(
    "Probe overhead: the photo pipeline, \(settings.batches) batches of 4 photos (\(settings.batches * 12) operations), \(settings.workMicros) µs of work each"
  )
  print("each side \(rounds) times, alternating, one process a run")
  var times: [ProbeSide: [Double]] = [:]
  var dropped = 0
  for round in 0..<rounds {
    // Rotate the order so no side always runs first (or right after another).
    let sides = ProbeSide.allCases
    for k in 0..<sides.count {
      let side = sides[(k + round) % sides.count]
      let p = Process()
      p.executableURL = me
      p.arguments = [
        "probe-once", side.rawValue, String(settings.batches), String(settings.workMicros),
      ]
      p.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) {
        $1
      }
      let out = Pipe()
      p.standardOutput = out
      try! p.run()
      // A run that hangs (a Foundation bug, a deadlock) ends the benchmark instead of stalling it.
      let watchdog = DispatchWorkItem { [p] in if p.isRunning { p.terminate() } }
      DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
      let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      p.waitUntilExit()
      watchdog.cancel()
      let fields = text.split(whereSeparator: \.isWhitespace)
      guard fields.count == 2, let s = Double(fields[0]), let d = Int(fields[1]) else {
        fatalError("\(side.rawValue) printed: \(text)")
      }
      times[side, default: []].append(s)
      dropped += d
    }
  }
  let plain = times[.plain]!.sorted()
  let plainMedian = plain[plain.count / 2]
  print(
    pad("side", 18) + pad("median s", 11) + pad("min s", 9) + pad("max s", 9)
      + "ratio to plain (median; min-max of runs)")
  for side in ProbeSide.allCases {
    let t = times[side]!.sorted()
    let m = t[t.count / 2]
    print(
      pad(side.rawValue, 18) + pad(fmt(m), 11) + pad(fmt(t.first!), 9) + pad(fmt(t.last!), 9)
        + "\(fmt(m / plainMedian, 2)) (\(fmt(t.first! / plainMedian, 2))-\(fmt(t.last! / plainMedian, 2)))"
    )
  }
  print("events dropped by the probes: \(dropped)")
}
