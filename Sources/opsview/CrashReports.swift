import Foundation
import OpsTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a crash's backtrace goes. The Swift runtime's backtracer is interactive when standard input
/// and output are a terminal: after a crash it waited on the board's terminal ("Press space to
/// interact…"), and Space, the board's pause key, opened a debugger prompt in front of a learner.
/// Its settings are read from `SWIFT_BACKTRACE` before `main` runs, so on a terminal opsview starts
/// itself again (same pid, same arguments) with backtraces written to a file, never interactive,
/// unless the user set `SWIFT_BACKTRACE` themselves. Then a crash restores the terminal and says
/// where the backtrace is.
enum CrashReports {
  /// The variable's value opsview sets: a directory (the backtracer names a file in it).
  static func settings(directory: String) -> String {
    "interactive=no,color=no,output-to=\(directory)"
  }

  static var directory: String {
    let tmp = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    return tmp ?? "/tmp"
  }

  /// Call first thing in `main`: may replace the process (and then does not return).
  static func prepare() {
    if let current = getenv("SWIFT_BACKTRACE").map({ String(cString: $0) }) {
      // Ours (after the restart): the board's crash handler says where to look.
      if current.hasPrefix("interactive=no,color=no,output-to=") {
        let place = String(current.dropFirst("interactive=no,color=no,output-to=".count))
        SignalGuard.setCrashNote(
          "opsview crashed, sorry: the board is closed and the backtrace is being written to "
            + "\(place) (a file named after opsview); please report it\n")
      }
      return
    }
    // Only where the backtracer would be interactive: both ends a terminal.
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return }
    // The executable itself, by its own name: the backtracer names its file after it.
    var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &path, Int(PATH_MAX))
    guard length > 0 else { return }
    setenv("SWIFT_BACKTRACE", settings(directory: directory), 1)
    execv(path, CommandLine.unsafeArgv)
    // It could not start again (no /proc): carry on as it is.
    unsetenv("SWIFT_BACKTRACE")
  }
}
