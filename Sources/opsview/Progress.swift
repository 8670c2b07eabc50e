import Foundation
import OpsInput
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line on standard error while something takes more than a moment (reading a large recording,
/// loading a large scenario, folding a long run): nothing for the first second, then what is being
/// done, the bytes so far (and of how many) and the seconds spent, rewritten in place each quarter
/// second, and cleared when done. Only on a terminal: a log or a pipe gets no progress lines.
final class Progress: Sendable {
  private struct State {
    var doing: String
    var done = 0
    var total: Int?
    var shown = false
    var stopped = false
  }
  private let state: Mutex<State>
  private let started = ContinuousClock.now

  /// Starts watching; `doing` is what the line says ("reading big.jsonl").
  init(_ doing: String) {
    // The words may quote a file name: through the one policy (the line's own \r and erase are
    // added when it is written).
    state = Mutex(State(doing: TextPolicy.escaped(doing, keepNewlines: false)))
    guard isatty(STDERR_FILENO) == 1 else {
      state.withLock { $0.stopped = true }
      return
    }
    let progress = self
    Thread.detachNewThread { progress.run() }
  }

  /// Bytes done so far, and of how many if known.
  func update(done: Int, total: Int?) {
    state.withLock {
      $0.done = done
      $0.total = total
    }
  }

  /// What is being done now (the same line goes on).
  func now(_ doing: String) {
    let safe = TextPolicy.escaped(doing, keepNewlines: false)
    state.withLock {
      $0.doing = safe
      $0.done = 0
      $0.total = nil
    }
  }

  /// Done: the line is cleared if it was shown.
  func finish() {
    // Under the lock, as the line is written: a line cannot come after its clearing.
    state.withLock { s in
      if !s.stopped && s.shown { Self.write("\r\u{1B}[K") }
      s.stopped = true
    }
  }

  /// Prints `message` on a line of its own: the progress line, if shown, is cleared first and
  /// comes back at its next tick.
  func say(_ message: String) {
    state.withLock { s in
      if !s.stopped && s.shown { Self.write("\r\u{1B}[K") }
      printError(message)
    }
  }

  deinit { finish() }

  private func run() {
    usleep(1_000_000)
    while true {
      let alive = state.withLock { s in
        guard !s.stopped else { return false }
        s.shown = true
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        var text = "opsview: \(s.doing)"
        if let total = s.total, total > 0 {
          text +=
            ": \(min(100, s.done * 100 / total))% (\(Self.size(s.done)) of \(Self.size(total)))"
        } else if s.done > 0 {
          text += ": \(Self.size(s.done)) so far"
        }
        Self.write("\r" + text + " … \(seconds)s\u{1B}[K")
        return true
      }
      guard alive else { return }
      usleep(250_000)
    }
  }

  static func size(_ bytes: Int) -> String {
    bytes >= 1 << 30
      ? String(format: "%.1f GB", Double(bytes) / Double(1 << 30))
      : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
  }

  private static func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { FileDescriptorCalls.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
