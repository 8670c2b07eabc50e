#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening what a user names as input (a scenario, a recording) or standard input, the same way for
/// every reader: a directory, a device or a socket is refused with its kind before anything is read
/// (`/dev/zero` would never end); a FIFO or a pipe that has nothing to say yet is waited for, and
/// after a moment the wait is announced, so a stalled writer is never a silent blank screen.
public enum InputFile {
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// How long input may keep silent before `announce` is told what is awaited.
  public static let quietSeconds = 1.0

  /// Opens `path` for reading. `what` names what it should hold ("a recording"), for the wait's
  /// announcement. A regular file's size is returned; a FIFO is opened without blocking and then
  /// waited for (see `awaitInput`). A failure's description is the reason alone ("no such file").
  public static func open(
    _ path: String, what: String, announce: ((String) -> Void)? = nil
  ) throws(Failure) -> (fd: Int32, size: Int?) {
    var info = stat()
    guard stat(path, &info) == 0 else { throw Failure(reason(errno)) }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: throw Failure("it is a directory")
    case S_IFCHR, S_IFBLK: throw Failure("it is a device, not a file")
    case S_IFSOCK: throw Failure("it is a socket, not a file")
    default: break
    }
    let fifo = info.st_mode & S_IFMT == S_IFIFO
    // A FIFO's open waits for a writer: opened at once instead, then waited for with a word.
    let fd = FileDescriptorCalls.open(path, O_RDONLY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0))
    guard fd >= 0 else { throw Failure(reason(errno)) }
    if fifo {
      awaitInput(fd) { announce?("waiting for a program to write \(what) into the FIFO \(path)") }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
      return (fd, nil)
    }
    return (fd, Int(info.st_size))
  }

  /// Whether `path` is a FIFO now (its open would wait for a writer).
  public static func isFIFO(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
  }

  /// Waits until `fd` has something to read (or its end); if that takes more than `quietSeconds`,
  /// calls `announce` once first. A regular file is always ready.
  public static func awaitInput(_ fd: Int32, announce: () -> Void) {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, Int32(quietSeconds * 1000))
    if ready != 0 { return }
    announce()
    while poll(&poller, 1, -1) < 0 && errno == EINTR {}
  }

  /// The reason for an errno, as a message says it.
  public static func reason(_ code: Int32) -> String {
    switch code {
    case ENOENT: "no such file"
    case ENOTDIR: "no such file (a part of the path is not a directory)"
    case EACCES: "permission denied"
    case ELOOP: "a symbolic link loop (too many levels of symbolic links)"
    case ENAMETOOLONG: "no such file (the path is too long)"
    default: String(cString: strerror(code))
    }
  }

  /// Reads what `fd` gives until its end, a chunk at a time, handing each to `body` (which may
  /// throw to stop). Returns the bytes read in all, and the errno of a read that failed (the input
  /// then ends there).
  @discardableResult
  public static func stream<E: Error>(
    _ fd: Int32, chunk: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
  ) throws(E) -> (bytes: Int, error: Int32?) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    var total = 0
    while true {
      let n = read(fd, buffer.baseAddress, chunk)
      if n < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN {
          awaitInput(fd) {}
          continue
        }
        return (total, code)
      }
      if n == 0 { return (total, nil) }
      total += n
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }
}
