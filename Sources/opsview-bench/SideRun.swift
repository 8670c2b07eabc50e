import Foundation

/// Which implementation one `run` measures.
enum Side: String, CaseIterable {
  case foundation
  /// `LiveRuntime()` as shipped: the standard lints fold every event on the delivery thread.
  case live
  /// `LiveRuntime(lints: [])`.
  case liveNolints = "live-nolints"
}

/// The options of `run` and `compare`: `--name value` pairs, comma-separated lists where several
/// values make sense. Numbers are validated here, with the usage on error.
struct BenchOptions {
  var sides: [Side] = [.live]
  var workloads: [Workload] = [.flat]
  var counts: [Int] = [100_000]
  /// 0 is Foundation's default, no limit.
  var limits: [Int] = [4]
  var runs = 5
  /// Seconds after which a run of `compare` is stopped.
  var deadline = 120.0

  static let usage = """
    usage: opsview-bench run --side foundation|live|live-nolints [--workload flat|diamond|chain]
                             [--ops N] [--limit 1|4|0]
           opsview-bench compare [--side live,live-nolints] [--workload flat,diamond,chain]
                                 [--ops 100000,1000000] [--limit 1,4,0] [--runs 5]
                                 [--deadline 120]
    --limit 0 is no limit (Foundation's default). Each run of `compare` is its own process; one
    still running after --deadline seconds is stopped and its row reports "> deadline" (corelibs'
    chain scheduling is quadratic: its 1M chain would not finish), and that side is not run again
    for the row.
    """

  init(_ arguments: ArraySlice<String>) throws {
    var rest = arguments
    func list<T>(_ value: String, _ parse: (Substring) -> T?) throws -> [T] {
      let items = value.split(separator: ",").map(parse)
      guard !items.isEmpty, items.allSatisfy({ $0 != nil }) else {
        throw BenchUsageError("cannot read '\(value)'")
      }
      return items.map { $0! }
    }
    while let name = rest.popFirst() {
      guard let value = rest.popFirst() else { throw BenchUsageError("\(name) needs a value") }
      switch name {
      case "--side": sides = try list(value) { Side(rawValue: String($0)) }
      case "--workload": workloads = try list(value) { Workload(rawValue: String($0)) }
      case "--ops":
        counts = try list(value) { Int($0).flatMap { (1...100_000_000).contains($0) ? $0 : nil } }
      case "--limit":
        limits = try list(value) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
      case "--runs":
        guard let r = Int(value), (1...99).contains(r) else {
          throw BenchUsageError("--runs must be 1 to 99")
        }
        runs = r
      case "--deadline":
        guard let d = Double(value), d >= 1, d <= 86_400 else {
          throw BenchUsageError("--deadline must be 1 to 86400 seconds")
        }
        deadline = d
      default: throw BenchUsageError("unknown option \(name)")
      }
    }
  }
}

struct BenchUsageError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message + "\n" + BenchOptions.usage }
}

/// One measurement in this process, printed as one `key=value` line for `compare` to read.
func runSide(_ side: Side, workload: Workload, count: Int, limit: Int) {
  let maxConcurrent = limit == 0 ? nil : limit
  let m: Measurement
  switch side {
  case .foundation:
    m = runFoundation(count: count, maxConcurrent: maxConcurrent, workload: workload)
  case .live: m = runLive(count: count, maxConcurrent: maxConcurrent, workload: workload)
  case .liveNolints:
    m = runLive(count: count, maxConcurrent: maxConcurrent, lints: false, workload: workload)
  }
  print(
    "side=\(side.rawValue) workload=\(workload.rawValue) ops=\(count) limit=\(limit) "
      + "seconds=\(fmt(m.seconds, 4)) peak_kb=\(peakResidentKilobytes()) events=\(m.events) "
      + "load=\(loadAverage().replacingOccurrences(of: " ", with: "/"))")
}
