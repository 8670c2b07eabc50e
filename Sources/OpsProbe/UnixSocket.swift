import Foundation
import OpsInput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Plain POSIX Unix-domain sockets: a probe needs one listening socket and a line protocol, and a
/// program linking the probe should not pull in an event loop (so no SwiftNIO).
enum UnixSocket {
  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
  }

  private static func address(_ path: String) throws -> sockaddr_un {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
      throw Failure("socket path too long: \(path)")
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      raw[bytes.count] = 0
    }
    return addr
  }

  /// A listening socket at `path`, readable and writable by this user only (0600).
  static func listen(at path: String) throws -> Int32 {
    let fd = SocketCalls.streamSocket(AF_UNIX)
    guard fd >= 0 else { throw Failure("socket") }
    unlink(path)
    var addr = try address(path)
    // The umask makes the socket 0600 from the moment it exists: no window for another user.
    let old = umask(0o177)
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    umask(old)
    guard bound == 0, SocketCalls.listen(fd, backlog: 8) == 0 else {
      let error = Failure("bind \(path)")
      close(fd)
      throw error
    }
    return fd
  }

  /// Connects to the probe at `path` and checks who listens there (`PeerCredentials`): a socket of
  /// another user than `owner` (this user by default) is refused, whatever directory it is in.
  static func connect(to path: String, owner: uid_t = geteuid()) throws -> Int32 {
    let fd = SocketCalls.streamSocket(AF_UNIX)
    guard fd >= 0 else { throw Failure("socket") }
    var addr = try address(path)
    let result = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        SocketCalls.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let error = Failure("connect \(path)")
      close(fd)
      throw error
    }
    guard let uid = PeerCredentials.uid(of: fd), uid == owner else {
      close(fd)
      throw ProbeError(
        "the probe at \(ProbeTarget.visible(path)) is not yours: another user's program listens there",
        refused: true)
    }
    return fd
  }

  /// Writes all of `data`; false when the peer has gone.
  static func write(_ fd: Int32, _ data: [UInt8]) -> Bool {
    var sent = 0
    while sent < data.count {
      let n = data[sent...].withUnsafeBytes {
        SocketCalls.send(fd, $0.baseAddress, $0.count)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }
}

/// Splits a byte stream into lines, refusing lines longer than `limit` (a hostile peer cannot make
/// the reader grow without bound).
struct LineReader {
  let fd: Int32
  let limit: Int
  private var buffer: [UInt8] = []

  init(fd: Int32, limit: Int = 1 << 20) {
    self.fd = fd
    self.limit = limit
  }

  enum Line {
    case line([UInt8])
    case tooLong, closed
  }

  mutating func next() -> Line {
    while true {
      if let nl = buffer.firstIndex(of: 10) {
        let line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        return .line(line)
      }
      if buffer.count > limit { return .tooLong }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return .closed }
      buffer.append(contentsOf: chunk[..<n])
    }
  }
}

/// A file only this user can read, created fresh (never through a link another user left).
enum PrivateFile {
  static func write(_ path: String, _ text: String) -> Bool {
    unlink(path)
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { FileDescriptorCalls.write(fd, $0.baseAddress, $0.count) }
      == bytes.count
  }
}
