import Foundation

#if canImport(Glibc)
  import Glibc

  private let streamSocket = Int32(SOCK_STREAM.rawValue)
  /// Linux refuses SIGPIPE per call.
  private let sendFlags = Int32(MSG_NOSIGNAL)
  private func sendBytes(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int {
    Glibc.send(fd, p, n, sendFlags)
  }
  private func refuseSigpipe(_ fd: Int32) {}
#elseif canImport(Darwin)
  import Darwin

  private let streamSocket = SOCK_STREAM
  private func sendBytes(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int {
    Darwin.send(fd, p, n, 0)
  }
  /// Darwin refuses SIGPIPE per socket.
  private func refuseSigpipe(_ fd: Int32) {
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
  }
#endif

/// A raw connection to a probe, as a careless or hostile viewer makes one: bytes out, lines in,
/// every read bounded in time. Shared by the probe's own tests and the end-to-end tests against
/// the example program.
public final class RawViewer {
  public struct ConnectFailure: Error, CustomStringConvertible {
    public let address: String
    public let code: Int32
    public var description: String { "cannot connect to \(address): errno \(code)" }
  }

  public let fd: Int32
  private var buffer: [UInt8] = []

  public init(unix path: String) throws {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path) - 1
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.prefix(capacity).enumerated() { raw[i] = b }
    }
    fd = try Self.connected(AF_UNIX, to: addr, named: path)
  }

  public init(tcp port: UInt16) throws {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
    fd = try Self.connected(AF_INET, to: addr, named: "127.0.0.1:\(port)")
  }

  /// A new stream socket of `domain` connected to `address` (a `sockaddr_un` or `sockaddr_in`).
  private static func connected<Address>(_ domain: Int32, to address: Address, named: String)
    throws -> Int32
  {
    let fd = socket(domain, streamSocket, 0)
    refuseSigpipe(fd)
    var address = address
    let ok = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
      }
    }
    guard ok == 0 else {
      let code = errno
      close(fd)
      throw ConnectFailure(address: named, code: code)
    }
    return fd
  }

  deinit { close(fd) }

  /// Sends `text` as it is (no newline added), until all of it is sent or the peer has gone.
  public func send(_ text: String) {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { sendBytes(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { return }
      sent += n
    }
  }

  /// The next line, or nil when the peer closed or nothing came within `timeout` seconds.
  public func line(timeout: Double = 15) -> String? {
    let end = Date().addingTimeInterval(timeout)
    while true {
      if let nl = buffer.firstIndex(of: 10) {
        let line = String(decoding: buffer[..<nl], as: UTF8.self)
        buffer.removeSubrange(...nl)
        return line
      }
      let left = end.timeIntervalSinceNow
      guard left > 0 else { return nil }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard n > 0 else { return nil }
      buffer += chunk[..<n]
    }
  }

  /// Lines until one contains `text` (or `timeout`); all of them.
  public func lines(until text: String, timeout: Double = 30) -> [String] {
    let end = Date().addingTimeInterval(timeout)
    var all: [String] = []
    while let l = line(timeout: max(0.01, end.timeIntervalSinceNow)) {
      all.append(l)
      if l.contains(text) { break }
    }
    return all
  }
}
