import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A long-running program started for a test (the example app a board attaches to), with its output
/// in a file, killed and reaped when released.
///
/// Not Foundation's `Process`: a child started from a Swift concurrency thread inherits that
/// thread's signal mask, in which nearly every signal (SIGTERM included) is blocked, so
/// `terminate()` does nothing and `waitUntilExit()` waits forever. That was why the attach test hung.
/// Here the child starts with an empty mask and default handlers, and every wait has a deadline.
final class ChildProcess {
  let pid: pid_t
  private var reaped = false

  /// Starts `arguments[0]` with `environment` added to this process's, stdin from /dev/null, and
  /// stdout and stderr appended to `outputPath`.
  init(_ arguments: [String], environment: [String: String] = [:], outputPath: String) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // Nothing else of the test process: its descriptors would count against the child's limit.
    if let closeFrom = Spawn.closeFromAction { _ = closeFrom(&actions, 3) }
    Spawn.resetSignals(&attributes)

    var variables = ProcessInfo.processInfo.environment
    for (key, value) in environment { variables[key] = value }
    var envp: [UnsafeMutablePointer<CChar>?] =
      variables.map { strdup("\($0)=\($1)") } + [nil]
    defer { for v in envp { free(v) } }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp)
    guard started == 0 else { throw Spawn.Failure.cannotStart(arguments[0], started) }
    self.pid = pid
  }

  /// Sends `signal` and waits up to `timeout` for the exit; SIGKILL after that. Returns whether the
  /// program exited from `signal` within the timeout.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) -> Bool {
    guard !reaped else { return false }
    kill(pid, signal)
    if waitForExit(timeout: timeout) { return true }
    kill(pid, SIGKILL)
    _ = waitForExit(timeout: .seconds(10))
    return false
  }

  /// Whether the program exited within `timeout` (polled: waitpid has no timeout).
  func waitForExit(timeout: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid || (result < 0 && errno == ECHILD) {
        reaped = true
        return true
      }
      if clock.now >= deadline { return false }
      usleep(20_000)
    }
  }

  deinit { stop(SIGKILL) }
}
