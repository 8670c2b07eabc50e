import Foundation

/// The process's peak resident memory in kilobytes (`VmHWM` of /proc/self/status), 0 where unknown.
func peakResidentKilobytes() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
      ?? 0
  }
  return 0
}

/// The fields of `/proc/loadavg` (the 1-, 5- and 15-minute load first), nil where unknown.
private func loadAverageFields() -> [Substring]? {
  (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ")
}

/// The 1-, 5- and 15-minute load averages, recorded with every measurement: the machine is shared.
func loadAverage() -> String {
  loadAverageFields()?.prefix(3).joined(separator: " ") ?? "?"
}

/// The 1-minute load average alone, nil where unknown.
func oneMinuteLoad() -> Double? {
  loadAverageFields()?.first.flatMap { Double($0) }
}
