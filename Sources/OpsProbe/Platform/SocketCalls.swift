#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The socket calls the probe makes, spelled once for Linux (glibc) and once for Darwin, each as its
/// platform's manual pages describe it; the rest of OpsProbe names no platform.
/// - `SOCK_STREAM` is imported from glibc as an enum case (`__socket_type`, used through
///   `.rawValue`), from Darwin as a plain `Int32`.
/// - A write to a socket whose peer has gone raises SIGPIPE, which would kill the program linking
///   the probe. Linux refuses the signal per call (`MSG_NOSIGNAL`, send(2)); Darwin has no such flag
///   and refuses it per socket (`SO_NOSIGPIPE`, setsockopt(2)), set here on every socket made or
///   accepted.
/// - `listen`, `connect` and `accept` are module-qualified: inside types that have methods of the
///   same names, the bare names would mean those methods (`close` and `write` of a descriptor are
///   in `FileDescriptorCalls`).
enum SocketCalls {
  /// A new stream socket of `domain` (`AF_UNIX`, `AF_INET`, `AF_INET6`), close-on-exec; -1 with
  /// `errno` on failure.
  static func streamSocket(_ domain: Int32) -> Int32 {
    #if canImport(Glibc)
      return Glibc.socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let fd = Darwin.socket(domain, SOCK_STREAM, 0)
      if fd >= 0 {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        noSignalOnWrite(fd)
      }
      return fd
    #endif
  }

  static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.listen(fd, backlog)
    #else
      Darwin.listen(fd, backlog)
    #endif
  }

  static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
    -> Int32
  {
    #if canImport(Glibc)
      Glibc.connect(fd, address, length)
    #else
      Darwin.connect(fd, address, length)
    #endif
  }

  /// A waiting connection on `listener`, close-on-exec; -1 with `errno` when there is none or it
  /// failed.
  static func accept(_ listener: Int32) -> Int32 {
    #if canImport(Glibc)
      let fd = Glibc.accept(listener, nil, nil)
    #else
      let fd = Darwin.accept(listener, nil, nil)
      if fd >= 0 { noSignalOnWrite(fd) }
    #endif
    if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fd
  }

  /// `send(2)` on a socket, never raising SIGPIPE; `dontWait`: return at once (EAGAIN) rather than
  /// block when the peer's buffer is full.
  static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, dontWait: Bool = false)
    -> Int
  {
    #if canImport(Glibc)
      Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL) | (dontWait ? Int32(MSG_DONTWAIT) : 0))
    #else
      // SIGPIPE is refused per socket (streamSocket, accept).
      Darwin.send(fd, bytes, count, dontWait ? MSG_DONTWAIT : 0)
    #endif
  }

  #if canImport(Darwin)
    private static func noSignalOnWrite(_ fd: Int32) {
      var on: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }
  #endif
}
