import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the tests read about another process: Linux's /proc, else `ps` and `pgrep` (macOS has no
/// /proc; both tools take these options there).
enum ProcessStatus {
  /// The children of `pid`.
  static func children(of pid: pid_t) -> [pid_t] {
    #if os(Linux)
      let text = try? String(
        contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
    #else
      let text = try? Spawn.run(["/usr/bin/pgrep", "-P", "\(pid)"]).output
    #endif
    return (text ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap {
      pid_t($0)
    }
  }

  /// The number of threads of `pid`, -1 where unknown.
  static func threads(of pid: pid_t) -> Int {
    #if os(Linux)
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
      return Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? -1
    #else
      // `ps -M`: a header line, then a line per thread.
      guard let out = try? Spawn.run(["/bin/ps", "-M", "-p", "\(pid)"]).output else { return -1 }
      return out.split(separator: "\n").count - 1
    #endif
  }

  /// The resident memory of `pid` in kilobytes, nil where unknown.
  static func residentKilobytes(of pid: pid_t) -> Int? {
    #if os(Linux)
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
      return rss.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    #else
      let out = try? Spawn.run(["/bin/ps", "-o", "rss=", "-p", "\(pid)"]).output
      return out.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #endif
  }

  /// The most recently given pid: the next ones are about to be used.
  static func lastPID() -> Int {
    #if os(Linux)
      let text = try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)
    #else
      let text = try? Spawn.run(["/bin/sh", "-c", "echo $$"]).output
    #endif
    return Int(text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
  }
}
