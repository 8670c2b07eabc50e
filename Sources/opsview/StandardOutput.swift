import Foundation
import OpsInput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every byte opsview prints goes through here (or through `print`, whose errors `checkFlushed`
/// reports at the end): a write that fails is a message and exit 1, never a trap ("No space left on
/// device" when standard output is `/dev/full`); a reader that has gone (`trace stress | head`
/// with SIGPIPE ignored) ends opsview quietly, as the signal would have.
enum StandardOutput {
  /// Writes all of `bytes` to standard output, or ends the process (see above).
  static func write(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let n = FileDescriptorCalls.write(STDOUT_FILENO, base + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        fail(errno)
      }
      offset += n
    }
  }

  static func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }

  /// What `print` left in its buffer, written now; a failure is reported as a write's.
  static func checkFlushed() {
    if fflush(nil) != 0 { fail(errno) }
  }

  /// Ends the process after a failed write to standard output: quietly (status 0, as `head`
  /// expects of the command before it) when the reader has gone, else with a message and status 1.
  /// `_exit`: the trace's writer thread may be the one failing while the engine's still runs.
  static func fail(_ code: Int32) -> Never {
    if code == EPIPE { _exit(0) }
    printError("opsview: cannot write to standard output: \(String(cString: strerror(code)))")
    _exit(1)
  }
}

/// Writes to standard error with every control character escaped (messages quote file names and
/// file contents; see `TextPolicy`). A failure to write it is ignored: there is nowhere else to say.
func printError(_ message: String) {
  let safe = TextPolicy.escaped(message)
  let bytes = Array((safe.hasSuffix("\n") ? safe : safe + "\n").utf8)
  bytes.withUnsafeBytes { raw in
    var offset = 0
    while offset < raw.count {
      let n = FileDescriptorCalls.write(
        STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      offset += n
    }
  }
}
