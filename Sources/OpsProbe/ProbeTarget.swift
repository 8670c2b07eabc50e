import Foundation

/// What `opsview attach` was given: a probe's socket, a program's name, or a loopback TCP port.
/// Socket and name targets follow the program: when it exits, the viewer waits for a probe of the
/// same name (a restarted program listens at a new path, named for its new pid) and connects to it.
public enum ProbeTarget: Sendable, Equatable, CustomStringConvertible {
  /// A Unix socket path, as `opsview attach` lists them.
  case socket(String)
  /// The newest running probe whose program has this name (`Probe.start(program:)`).
  case name(String)
  /// A probe started with `transport: .tcp(port:)`, on this machine's loopback interface.
  case tcp(host: String, port: UInt16)

  /// Reads an address: a path (it has a `/`), `HOST:PORT` with a loopback host, or a program name.
  /// A non-loopback host is refused: probes are for this machine's user only.
  public static func parse(_ text: String) throws(ProbeError) -> ProbeTarget {
    if text.contains("/") { return .socket(text) }
    if let colon = text.lastIndex(of: ":") {
      var host = String(text[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      let portText = text[text.index(after: colon)...]
      guard let port = UInt16(portText), port > 0 else {
        throw ProbeError(
          "'\(Self.visible(String(portText)))' is not a port: give a number from 1 to 65535, as in 127.0.0.1:7070"
        )
      }
      guard Loopback.isLoopback(host) else {
        throw ProbeError(
          "refusing to connect to \(Self.visible(host)): probes listen on this machine's loopback only (127.0.0.1, ::1 or localhost)"
        )
      }
      return .tcp(host: host, port: port)
    }
    guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    else {
      throw ProbeError(
        "'\(Self.visible(text))' is not a probe: give a socket path, a program name or 127.0.0.1:PORT"
      )
    }
    return .name(text)
  }

  /// The program a target follows: a name, or the name in a socket's file name (`photos-123.sock`).
  public var programName: String? {
    switch self {
    case .name(let n): n
    case .socket(let path): ProbeAddress.program(ofPath: path)
    case .tcp: nil
    }
  }

  public var description: String {
    switch self {
    case .socket(let p): Self.visible(p)
    case .name(let n): n
    case .tcp(let h, let p): h.contains(":") ? "[\(h)]:\(p)" : "\(h):\(p)"
    }
  }

  /// Control characters shown as `?`, so an address typed or pasted cannot drive the terminal.
  public static func visible(_ text: String) -> String {
    String(
      text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
  }
}

/// Which hosts are this machine's loopback interface.
public enum Loopback {
  public static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
    return parts[0] == "127"
  }
}
