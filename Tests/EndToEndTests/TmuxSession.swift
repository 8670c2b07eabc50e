import Foundation
import Synchronization

/// A private tmux server running one program in a pane of a fixed size, for driving the real binary.
///
/// Each session has its own socket (`-L opsview-e2e-<pid>-<n>`) and no config file, so tests never
/// touch the user's tmux; the server is killed when the session is released.
final class TmuxSession {
  /// Where tmux is, or nil when it is not installed (the tests that need it are skipped).
  static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
    .first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  static var isAvailable: Bool { tmuxPath != nil }

  private static let sessions = Mutex(0)
  let socket: String
  private let tmux: String

  /// Starts `command` (argv, run directly, not through a shell) in a detached `width`×`height` pane.
  init(width: Int, height: Int, command: [String]) throws {
    guard let tmux = Self.tmuxPath else { throw TmuxError.notInstalled }
    self.tmux = tmux
    let number = Self.sessions.withLock { count in
      count += 1
      return count
    }
    socket = "opsview-e2e-\(getpid())-\(number)"
    try run(
      [
        "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "\(width)", "-y", "\(height)",
        "--",
      ] + command)
    // No client is attached: let resize-window, not a client, decide the size.
    try run(["set-option", "-g", "window-size", "manual"])
  }

  deinit {
    _ = try? run(["kill-server"])
  }

  /// Runs `program` with `arguments` in the pane inside a small shell wrapper that records the
  /// terminal modes before and after, then prints `tty: restored` or `tty: changed`, and
  /// `exit: <status>`, and stays alive so the screen can be read.
  static func wrapped(_ program: String, _ arguments: [String], environment: [String: String] = [:])
    -> [String]
  {
    // Ctrl-C reaches the whole foreground process group: the wrapper catches it (a caught signal
    // is default again in the program it starts) so that it outlives the program to report.
    let script = """
      trap : INT
      before=$(stty -g); "$@"; code=$?; after=$(stty -g)
      if [ "$before" = "$after" ]; then echo "tty: restored"; else echo "tty: changed"; fi
      echo "exit: $code"
      exec sleep 3600
      """
    let variables =
      ["LANG=C.UTF-8", "LC_ALL=C.UTF-8"]
      + environment.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
    return ["/usr/bin/env"] + variables + ["/bin/sh", "-c", script, "sh", program] + arguments
  }

  /// tmux key names (`Enter`, `Space`, `C-c`, `Escape`, `Up`) or literal characters, as send-keys takes them.
  func send(_ keys: String...) throws {
    try run(["send-keys", "-t", "e2e"] + keys)
  }

  /// The visible screen, one line per row, trailing blanks trimmed by tmux.
  func capture() -> String {
    (try? run(["capture-pane", "-p", "-t", "e2e"])) ?? ""
  }

  /// The visible screen with its colours and attributes as SGR escape sequences (`capture-pane -e`).
  func captureStyled() -> String {
    (try? run(["capture-pane", "-p", "-e", "-t", "e2e"])) ?? ""
  }

  func resize(width: Int, height: Int) throws {
    try run(["resize-window", "-t", "e2e", "-x", "\(width)", "-y", "\(height)"])
  }

  /// Polls the screen every 50 ms until it contains `text`; false if the deadline passes first, or
  /// at once if a `wrapped` program has ended without showing it (its `exit:` line is there).
  /// The deadline is generous on purpose: it only bounds a failure, it is not a timing assertion.
  @discardableResult
  func waitFor(_ text: String, timeout: Duration = .seconds(20)) -> Bool {
    var found = false
    _ = waitUntil(timeout: timeout) { screen in
      found = screen.contains(text)
      return found || Self.programEnded(screen)
    }
    return found
  }

  /// The `wrapped` program has ended: the wrapper printed its `exit: <status>` line.
  static func programEnded(_ screen: String) -> Bool {
    screen.split(separator: "\n").contains { line in
      line.hasPrefix("exit: ") && Int(line.dropFirst(6)) != nil
    }
  }

  /// Polls the screen until `condition` holds; false if the deadline passes first.
  func waitUntil(timeout: Duration = .seconds(20), _ condition: (String) -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
      if condition(capture()) { return true }
      if clock.now >= deadline { return false }
      usleep(50_000)
    }
  }

  /// The screen once `condition` holds and two captures 50 ms apart are the same: a frame that
  /// ncurses writes in several pieces is whole, so what a test reads next is not half of the last
  /// frame and half of the one before. For still screens (a paused board, a program that ended);
  /// nil if the deadline passes first.
  func settled(timeout: Duration = .seconds(20), _ condition: (String) -> Bool = { _ in true })
    -> String?
  {
    var previous: String?
    var screen = ""
    let held = waitUntil(timeout: timeout) { now in
      defer { previous = now }
      screen = now
      return condition(now) && now == previous
    }
    return held ? screen : nil
  }

  /// A tmux format about the pane (`#{alternate_on}`, `#{mouse_any_flag}`, `#{pane_tty}`).
  func display(_ format: String) -> String {
    ((try? run(["display-message", "-p", "-t", "e2e", format])) ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether the pane shows the alternate screen, and whether a program asked for mouse reports.
  var alternateScreenAndMouse: (alternate: Bool, mouse: Bool) {
    let flags = display("#{alternate_on} #{mouse_any_flag}").split(separator: " ")
    return (flags.first == "1", flags.last == "1")
  }

  /// The pid of the process started in the pane (the wrapper shell for `wrapped` commands).
  func panePID() -> pid_t? {
    guard let text = try? run(["display-message", "-p", "-t", "e2e", "#{pane_pid}"]) else {
      return nil
    }
    return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// The children of the pane's process (for a `wrapped` command: the program under test).
  func paneChildren() -> [pid_t] {
    guard let parent = panePID() else { return [] }
    return ProcessStatus.children(of: parent)
  }

  /// Waits until the pane's process has a child (the program started) and returns its pid.
  func waitForChild(timeout: Duration = .seconds(20)) -> pid_t? {
    var child: pid_t?
    _ = waitUntil(timeout: timeout) { _ in
      child = paneChildren().first
      return child != nil
    }
    return child
  }

  @discardableResult
  private func run(_ arguments: [String]) throws -> String {
    let result = try Spawn.run([tmux, "-L", socket] + arguments)
    guard result.status == 0 else {
      throw TmuxError.failed(arguments.first ?? "tmux", result.status)
    }
    return result.output
  }
}

enum TmuxError: Error, CustomStringConvertible {
  case notInstalled
  case failed(String, Int32)

  var description: String {
    switch self {
    case .notInstalled: "tmux is not installed"
    case .failed(let command, let status): "tmux \(command) exited with \(status)"
    }
  }
}

/// A screen's text with line breaks and spaces removed, so a message that wraps at the pane's width
/// (at a space or within a word) is still found: compare `squeezed(screen)` with `squeezed(text)`.
func squeezed(_ text: String) -> String { text.filter { $0 != "\n" && $0 != " " } }
