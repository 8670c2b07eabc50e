#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The uid of the process at the other end of a connected Unix socket, nil when unknown.
/// Linux: `getsockopt(SO_PEERCRED)` fills a `struct ucred` (socket(7), unix(7)); Darwin:
/// `getpeereid(3)`, which reads `LOCAL_PEERCRED` for it.
enum PeerCredentials {
  #if canImport(Glibc)
    /// Linux's `struct ucred` (glibc declares it only under _GNU_SOURCE, so Swift does not see it).
    private struct Credentials {
      var pid: Int32 = 0
      var uid: UInt32 = 0
      var gid: UInt32 = 0
    }
    /// SO_PEERCRED (asm-generic/socket.h), hidden with `struct ucred`.
    private static let peerCred: Int32 = 17
  #endif

  static func uid(of fd: Int32) -> uid_t? {
    #if canImport(Glibc)
      var cred = Credentials()
      var length = socklen_t(MemoryLayout<Credentials>.size)
      guard getsockopt(fd, SOL_SOCKET, peerCred, &cred, &length) == 0,
        length == socklen_t(MemoryLayout<Credentials>.size)
      else { return nil }
      return cred.uid
    #else
      var uid = uid_t()
      var gid = gid_t()
      guard getpeereid(fd, &uid, &gid) == 0 else { return nil }
      return uid
    #endif
  }
}
