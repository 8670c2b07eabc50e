import Foundation

/// One `run` in a child process: its seconds and peak resident memory.
struct SideResult {
  var seconds: Double
  var peakKilobytes: Int
}

/// Runs `opsview-bench run ...` (this executable) in a fresh process and reads its line.
func spawnRun(_ side: Side, workload: Workload, count: Int, limit: Int) throws -> SideResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  process.arguments = [
    "run", "--side", side.rawValue, "--workload", workload.rawValue, "--ops", String(count),
    "--limit", String(limit),
  ]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
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
          // A run that crashes is reported and run again (once): one crash does not lose the row.
          func measure(_ s: Side) throws -> SideResult {
            do {
              return try spawnRun(s, workload: workload, count: count, limit: limit)
            } catch {
              failures.append(s.rawValue)
              FileHandle.standardError.write(Data("\(error)\n".utf8))
              return try spawnRun(s, workload: workload, count: count, limit: limit)
            }
          }
          for run in 0..<options.runs {
            if run % 2 == 0 {
              f.append(try measure(.foundation))
              l.append(try measure(side))
            } else {
              l.append(try measure(side))
              f.append(try measure(.foundation))
            }
          }
          let pairs = zip(f, l).map { $0.seconds / $1.seconds }
          let fm = middle(f.map(\.seconds))
          let lm = middle(l.map(\.seconds))
          let mb = { (rs: [SideResult]) in fmt(Double(rs.map(\.peakKilobytes).max()!) / 1024, 0) }
          print(
            pad(limit == 0 ? "none" : String(limit), 7) + pad(workload.rawValue, 9)
              + pad(String(count), 9) + pad(side.rawValue, 14) + pad(fmt(fm), 8) + pad(fmt(lm), 8)
              + pad(fmt(fm / lm, 2), 8)
              + pad(fmt(pairs.min()!, 2) + "–" + fmt(pairs.max()!, 2), 14) + pad(mb(f), 7)
              + pad(mb(l), 8) + loadAverage()
              + (failures.isEmpty
                ? "" : "  (crashed and rerun: \(failures.joined(separator: ", ")))"))
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
