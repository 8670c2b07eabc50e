import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program and waits for it, without Foundation's `Process`.
///
/// Two things make `Process` unfit for starting tmux from a test: corelibs-foundation notices a
/// child's exit through a socket the child inherits, and the tmux server (which the first tmux
/// command forks off and keeps) holds it forever, so `waitUntilExit` never returns; and a child
/// inherits the signal mask of the Swift concurrency thread that starts it, with nearly every
/// signal blocked, so the server never sees SIGCHLD and `kill-server` cannot finish. Here the child
/// gets default signal handling, an empty mask and no descriptors beyond stdin/stdout/stderr.
enum Spawn {
  struct Result {
    var status: Int32
    var output: String
  }

  enum Failure: Error, CustomStringConvertible {
    case cannotStart(String, Int32)

    var description: String {
      switch self {
      case .cannotStart(let program, let error):
        "cannot start \(program): \(String(cString: strerror(error)))"
      }
    }
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), declared only under _GNU_SOURCE.
  typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  static let closeFromAction: CloseFrom? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: CloseFrom.self)
  }()

  /// A child starts with no signal blocked and every handler at its default: the mask of a Swift
  /// concurrency thread (nearly every signal blocked) must not reach it, or SIGTERM would not stop it.
  static func resetSignals(_ attributes: inout posix_spawnattr_t) {
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  }

  /// Runs `arguments[0]` with stdin from /dev/null, stdout captured (or discarded) and stderr
  /// discarded; returns the exit status (128 + n for signal n) and what it printed.
  static func run(_ arguments: [String], captureOutput: Bool = true) throws -> Result {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var pipeEnds: [Int32] = [-1, -1]
    if captureOutput {
      guard pipe(&pipeEnds) == 0 else { throw Failure.cannotStart(arguments[0], errno) }
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    if let closeFrom = closeFromAction { _ = closeFrom(&actions, 3) }

    resetSignals(&attributes)

    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
    if captureOutput { close(pipeEnds[1]) }
    guard started == 0 else {
      if captureOutput { close(pipeEnds[0]) }
      throw Failure.cannotStart(arguments[0], started)
    }

    var output: [UInt8] = []
    if captureOutput {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count > 0 {
          output += buffer[0..<count]
        } else if count == 0 || errno != EINTR {
          break
        }
      }
      close(pipeEnds[0])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: decode the wait status by hand.
    let signal = status & 0x7F
    let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    return Result(status: code, output: String(decoding: output, as: UTF8.self))
  }
}
