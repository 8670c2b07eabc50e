import Foundation

/// One `run` in a child process: its seconds and peak resident memory.
struct SideResult {
  var seconds: Double
  var peakKilobytes: Int
}

/// A run still going at the deadline: stopped, it measured nothing but a lower bound.
struct RunTimedOut: Error, CustomStringConvertible {
  var deadline: Double
  var description: String { "stopped after \(fmt(deadline, 0)) s" }
}

/// Runs `opsview-bench run ...` (this executable) in a fresh process and reads its line; a run still
/// going after `deadline` seconds is killed and throws `RunTimedOut`.
func spawnRun(
  _ side: Side, workload: Workload, count: Int, limit: Int, deadline: Double
) throws -> SideResult {
  let process = Process()
  process.executableURL = thisExecutable()
  process.arguments = [
    "run", "--side", side.rawValue, "--workload", workload.rawValue, "--ops", String(count),
    "--limit", String(limit),
  ]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let stopped = StopFlag()
  let stopper = DispatchWorkItem {
    // Only a run still going: one that just ended is not reported as stopped.
    guard process.isRunning else { return }
    stopped.set()
    kill(process.processIdentifier, SIGKILL)
  }
  DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: stopper)
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  stopper.cancel()
  if stopped.isSet { throw RunTimedOut(deadline: deadline) }
  let line = String(decoding: data, as: UTF8.self)
  var fields: [Substring: Substring] = [:]
  for pair in line.split(whereSeparator: \.isWhitespace) {
    let kv = pair.split(separator: "=", maxSplits: 1)
    if kv.count == 2 { fields[kv[0]] = kv[1] }
  }
  guard process.terminationStatus == 0, let s = fields["seconds"].flatMap({ Double($0) }),
    let kb = fields["peak_kb"].flatMap({ Int($0) })
  else {
    throw RunFailure(
      description: "\(side.rawValue) \(workload.rawValue) \(count) limit \(limit) failed "
        + "(status \(process.terminationStatus))")
  }
  return SideResult(seconds: s, peakKilobytes: kb)
}

/// For every limit × workload × size and every live side (a row): `runs` pairs of Foundation and
/// live, each run its own process, the order alternating from pair to pair so neither side always
/// runs on the warmer (or busier) machine. The pairs are taken in passes: each pass runs one pair of
/// every row, so a slow minute of this shared machine lands on one pair of several rows rather than
/// on every pair of one row (see docs/PERFORMANCE.md). Reports medians, the ratio of the
/// medians with the spread of the per-pair ratios, the largest peak memory of each side, and the
/// range of the 1-minute load seen after the row's pairs.
func compare(_ options: BenchOptions) throws {
  let liveSides = options.sides.filter { $0 != .foundation }
  var rows: [CompareRow] = []
  for limit in options.limits {
    for workload in options.workloads {
      for count in options.counts {
        for side in liveSides.isEmpty ? [.live] : liveSides {
          rows.append(CompareRow(limit: limit, workload: workload, count: count, side: side))
        }
      }
    }
  }
  print(
    "Foundation vs live runtime, no-op operations, \(options.runs) alternating pairs a row, "
      + "one process per run, \(options.runs) passes over the \(rows.count) rows")
  print("load at start: \(loadAverage())")
  for pass in 0..<options.runs {
    for row in rows { try row.measurePair(foundationFirst: pass % 2 == 0, options: options) }
    FileHandle.standardError.write(
      Data("pass \(pass + 1) of \(options.runs) done, load \(loadAverage())\n".utf8))
  }
  print(
    pad("limit", 7) + pad("workload", 9) + pad("ops", 9) + pad("side", 14) + pad("F s", 8)
      + pad("live s", 8) + pad("F/live", 8) + pad("pair min–max", 14) + pad("F MB", 7)
      + pad("live MB", 8) + "load (1 min)")
  for row in rows { print(row.line(deadline: options.deadline)) }
}

/// One combination of `compare` and what its pairs measured so far.
final class CompareRow {
  let limit: Int
  let workload: Workload
  let count: Int
  let side: Side
  private var foundation: [SideResult] = []
  private var live: [SideResult] = []
  /// Foundation's seconds over the live side's, for each pair where both finished.
  private var pairRatios: [Double] = []
  /// The 1-minute load after each pair.
  private var loads: [Double] = []
  private var failures: [String] = []
  /// Sides that ran past the deadline: not run again for this row.
  private var timedOut: Set<Side> = []

  init(limit: Int, workload: Workload, count: Int, side: Side) {
    (self.limit, self.workload, self.count, self.side) = (limit, workload, count, side)
  }

  /// Runs one pair, in the order given.
  func measurePair(foundationFirst: Bool, options: BenchOptions) throws {
    var f: SideResult?
    var l: SideResult?
    if foundationFirst {
      f = try measure(.foundation, options)
      l = try measure(side, options)
    } else {
      l = try measure(side, options)
      f = try measure(.foundation, options)
    }
    if let f { foundation.append(f) }
    if let l { live.append(l) }
    if let f, let l { pairRatios.append(f.seconds / l.seconds) }
    if let load = oneMinuteLoad() { loads.append(load) }
  }

  /// A run that crashes is reported and run again (once): one crash does not lose the pair.
  private func measure(_ s: Side, _ options: BenchOptions) throws -> SideResult? {
    guard !timedOut.contains(s) else { return nil }
    do {
      do {
        return try spawnRun(
          s, workload: workload, count: count, limit: limit, deadline: options.deadline)
      } catch let error as RunFailure {
        failures.append(s.rawValue)
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        return try spawnRun(
          s, workload: workload, count: count, limit: limit, deadline: options.deadline)
      }
    } catch is RunTimedOut {
      timedOut.insert(s)
      return nil
    }
  }

  /// The row of the table. A side that ran past the deadline reads as "> deadline"; its ratio is
  /// then a bound.
  func line(deadline: Double) -> String {
    let over = "> " + fmt(deadline, 0)
    let fText = timedOut.contains(.foundation) ? over : fmt(middle(foundation.map(\.seconds)))
    let lText = timedOut.contains(side) ? over : fmt(middle(live.map(\.seconds)))
    var ratio = "–"
    var spread = "–"
    if timedOut.isEmpty, !pairRatios.isEmpty {
      ratio = fmt(middle(foundation.map(\.seconds)) / middle(live.map(\.seconds)), 2)
      spread = fmt(pairRatios.min()!, 2) + "–" + fmt(pairRatios.max()!, 2)
    } else if timedOut == [.foundation], !live.isEmpty {
      ratio = "> " + fmt(deadline / middle(live.map(\.seconds)), 1)
    }
    let mb = { (rs: [SideResult]) in
      rs.isEmpty ? "–" : fmt(Double(rs.map(\.peakKilobytes).max()!) / 1024, 0)
    }
    let load = loads.isEmpty ? "?" : fmt(loads.min()!, 2) + "–" + fmt(loads.max()!, 2)
    return pad(limit == 0 ? "none" : String(limit), 7) + pad(workload.rawValue, 9)
      + pad(String(count), 9) + pad(side.rawValue, 14) + pad(fText, 8) + pad(lText, 8)
      + pad(ratio, 8) + pad(spread, 14) + pad(mb(foundation), 7) + pad(mb(live), 8) + load
      + (failures.isEmpty ? "" : "  (crashed and rerun: \(failures.joined(separator: ", ")))")
      + (timedOut.isEmpty
        ? ""
        : "  (stopped after \(fmt(deadline, 0)) s: "
          + "\(timedOut.map(\.rawValue).sorted().joined(separator: ", ")))")
  }
}

func middle(_ values: [Double]) -> Double {
  let s = values.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

struct RunFailure: Error, CustomStringConvertible {
  var description: String
}

/// Set once by the deadline's timer, read after the run ended.
final class StopFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
