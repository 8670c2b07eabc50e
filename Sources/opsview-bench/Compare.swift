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
  process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
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

/// For every limit × workload × size and every live side: `runs` pairs of Foundation and live, each
/// run its own process, the order alternating from pair to pair so neither side always runs on the
/// warmer (or busier) machine. Reports medians, the ratio of the medians with the spread of the
/// per-pair ratios, and the largest peak memory of each side.
func compare(_ options: BenchOptions) throws {
  let liveSides = options.sides.filter { $0 != .foundation }
  print(
    "Foundation vs live runtime, no-op operations, \(options.runs) alternating pairs, one process per run"
  )
  print("load at start: \(loadAverage())")
  print(
    pad("limit", 7) + pad("workload", 9) + pad("ops", 9) + pad("side", 14) + pad("F s", 8)
      + pad("live s", 8) + pad("F/live", 8) + pad("pair min–max", 14) + pad("F MB", 7)
      + pad("live MB", 8) + "load")
  for limit in options.limits {
    for workload in options.workloads {
      for count in options.counts {
        for side in liveSides.isEmpty ? [.live] : liveSides {
          var f: [SideResult] = []
          var l: [SideResult] = []
          var failures: [String] = []
          // Sides that ran past the deadline: not run again for this row.
          var timedOut: Set<Side> = []
          // A run that crashes is reported and run again (once): one crash does not lose the row.
          func measure(_ s: Side) throws -> SideResult? {
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
          for run in 0..<options.runs {
            if run % 2 == 0 {
              if let r = try measure(.foundation) { f.append(r) }
              if let r = try measure(side) { l.append(r) }
            } else {
              if let r = try measure(side) { l.append(r) }
              if let r = try measure(.foundation) { f.append(r) }
            }
          }
          // A side that ran past the deadline reads as "> deadline"; its ratio is then a bound.
          let over = "> " + fmt(options.deadline, 0)
          let fText = timedOut.contains(.foundation) ? over : fmt(middle(f.map(\.seconds)))
          let lText = timedOut.contains(side) ? over : fmt(middle(l.map(\.seconds)))
          var ratio = "–"
          var spread = "–"
          if timedOut.isEmpty {
            let pairs = zip(f, l).map { $0.seconds / $1.seconds }
            ratio = fmt(middle(f.map(\.seconds)) / middle(l.map(\.seconds)), 2)
            spread = fmt(pairs.min()!, 2) + "–" + fmt(pairs.max()!, 2)
          } else if timedOut == [.foundation], !l.isEmpty {
            ratio = "> " + fmt(options.deadline / middle(l.map(\.seconds)), 1)
          }
          let mb = { (rs: [SideResult]) in
            rs.isEmpty ? "–" : fmt(Double(rs.map(\.peakKilobytes).max()!) / 1024, 0)
          }
          print(
            pad(limit == 0 ? "none" : String(limit), 7) + pad(workload.rawValue, 9)
              + pad(String(count), 9) + pad(side.rawValue, 14) + pad(fText, 8) + pad(lText, 8)
              + pad(ratio, 8) + pad(spread, 14) + pad(mb(f), 7) + pad(mb(l), 8) + loadAverage()
              + (failures.isEmpty
                ? "" : "  (crashed and rerun: \(failures.joined(separator: ", ")))")
              + (timedOut.isEmpty
                ? ""
                : "  (stopped after \(fmt(options.deadline, 0)) s: "
                  + "\(timedOut.map(\.rawValue).sorted().joined(separator: ", ")))"))
        }
      }
    }
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
