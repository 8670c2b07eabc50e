import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// TCP on the loopback interface only, for a probe asked for a port (a container, a tool that cannot
/// open Unix sockets). Any local user can connect to a port, unlike the 0600 socket: the probe's
/// documentation says so.
enum LoopbackTCP {
  /// A listening socket on `host` (loopback only) at `port` (0: any free port), and the port bound.
  static func listen(host: String, port: UInt16) throws(ProbeError) -> (fd: Int32, port: UInt16) {
    guard Loopback.isLoopback(host) else {
      throw ProbeError(
        "refusing to listen on \(ProbeTarget.visible(host)): a probe listens on loopback only (127.0.0.1 or ::1)"
      )
    }
    let v6 = host == "::1"
    let fd = SocketCalls.streamSocket(v6 ? AF_INET6 : AF_INET)
    guard fd >= 0 else { throw ProbeError("socket: \(String(cString: strerror(errno)))") }
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    let bound = withAddress(host: host, port: port) { bind(fd, $0, $1) }
    guard bound == 0, SocketCalls.listen(fd, backlog: 8) == 0 else {
      let error = ProbeError("listen on \(host):\(port): \(String(cString: strerror(errno)))")
      close(fd)
      throw error
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let actual = withUnsafePointer(to: &storage) { pointer -> UInt16 in
      v6
        ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin6_port)
        }
        : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          UInt16(bigEndian: $0.pointee.sin_port)
        }
    }
    return (fd, actual)
  }

  static func connect(host: String, port: UInt16) throws(ProbeError) -> Int32 {
    guard Loopback.isLoopback(host) else {
      throw ProbeError("refusing to connect to \(ProbeTarget.visible(host)): loopback only")
    }
    let name = host == "localhost" ? "127.0.0.1" : host
    let fd = SocketCalls.streamSocket(name == "::1" ? AF_INET6 : AF_INET)
    guard fd >= 0 else { throw ProbeError("socket: \(String(cString: strerror(errno)))") }
    let result = withAddress(host: name, port: port) { SocketCalls.connect(fd, $0, $1) }
    guard result == 0 else {
      let error = ProbeError("connect \(host):\(port): \(String(cString: strerror(errno)))")
      close(fd)
      throw error
    }
    return fd
  }

  private static func withAddress(
    host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    if host == "::1" {
      var a = sockaddr_in6()
      a.sin6_family = sa_family_t(AF_INET6)
      a.sin6_port = port.bigEndian
      a.sin6_addr = in6addr_loopback
      return withUnsafePointer(to: &a) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_port = port.bigEndian
    inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &a.sin_addr)
    return withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }
}
