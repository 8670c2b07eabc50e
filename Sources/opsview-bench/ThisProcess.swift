import Foundation

// What the benchmarks read about their own process and the machine, on Linux and on Darwin.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's peak resident memory in kilobytes, 0 where unknown: `VmHWM` of /proc/self/status
/// on Linux, `getrusage`'s `ru_maxrss` on Darwin (in bytes there, in kilobytes on Linux).
func peakResidentKilobytes() -> Int {
  #if os(Linux)
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        ?? 0
    }
    return 0
  #else
    var usage = rusage()
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) / 1024
  #endif
}

/// The 1-, 5- and 15-minute load averages (`getloadavg`, in glibc and Darwin alike), nil where unknown.
private func loadAverages() -> [Double]? {
  var loads = [Double](repeating: 0, count: 3)
  return getloadavg(&loads, 3) == 3 ? loads : nil
}

/// The 1-, 5- and 15-minute load averages, recorded with every measurement: the machine is shared.
func loadAverage() -> String {
  loadAverages()?.map { String(format: "%.2f", $0) }.joined(separator: " ") ?? "?"
}

/// The 1-minute load average alone, nil where unknown.
func oneMinuteLoad() -> Double? {
  loadAverages()?.first
}

/// This executable's file: the benchmarks start it again, and the release `opsview` beside it.
func thisExecutable() -> URL {
  #if os(Linux)
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  #else
    (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
      .resolvingSymlinksInPath()
  #endif
}
