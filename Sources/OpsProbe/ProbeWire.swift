import Foundation
import OpsEngine

/// The probe's line protocol, shared by the program and the viewer. Program → viewer: a header line
/// (`{"format":"opsview-probe","version":2,...}`), then events as `trace --format jsonl` prints them,
/// and `{"dropped":N}` whenever the bounded buffer had to drop events. Viewer → program: commands,
/// `{"command":"suspend","target":"downloads"}` (`value` for maxConcurrent: a number, or null for
/// no limit).
public enum ProbeWire {
  public static let format = "opsview-probe"

  public struct Header: Sendable, Equatable {
    public var program: String
    public var pid: Int32
    /// Whether the program accepts steering commands (it said so when it started the probe).
    public var control: Bool
    /// How often operation states are sampled (seconds).
    public var sampleInterval: Double
    /// When the probe started (seconds since 1970): with the pid, tells a restarted program's new
    /// story from a reconnection to the same one.
    public var started: Double = 0
  }

  static func headerLine(_ h: Header) -> String {
    json([
      "format": format, "version": EventFormat.version, "program": h.program, "pid": Int(h.pid),
      "control": h.control, "sampleInterval": h.sampleInterval, "started": h.started,
    ])
  }

  /// The header, or why the first line is not one this viewer can read.
  public static func header(_ line: [UInt8]) throws(ProbeError) -> Header {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      o["format"] as? String == format
    else { throw ProbeError("not an opsview probe: the first line is not its header") }
    guard let version = o["version"] as? Int, version == EventFormat.version else {
      throw ProbeError(
        "the probe speaks event format version \(o["version"] ?? "?"); this opsview reads version \(EventFormat.version)"
      )
    }
    return Header(
      program: o["program"] as? String ?? "?", pid: Int32(exactly: o["pid"] as? Int ?? 0) ?? 0,
      control: o["control"] as? Bool ?? false,
      sampleInterval: min(max(o["sampleInterval"] as? Double ?? 0, 0), 3600),
      started: o["started"] as? Double ?? 0)
  }

  public static func commandLine(_ c: Command) -> String {
    var o: [String: Any] = ["command": c.name]
    switch c {
    case .cancel(let op): o["target"] = op
    case .cancelAll(let q), .suspend(let q), .resume(let q): o["target"] = q
    case .setMaxConcurrent(let q, let v):
      o["target"] = q
      o["value"] = v.map { $0 as Any } ?? NSNull()
    }
    return json(o)
  }

  static func command(_ line: [UInt8]) -> Command? {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      let name = o["command"] as? String, let target = o["target"] as? String
    else { return nil }
    switch name {
    case "cancel": return .cancel(operation: target)
    case "cancelAll": return .cancelAll(queue: target)
    case "suspend": return .suspend(queue: target)
    case "resume": return .resume(queue: target)
    case "maxConcurrent": return .setMaxConcurrent(queue: target, value: o["value"] as? Int)
    default: return nil
    }
  }

  static func json(_ o: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}

public struct ProbeError: Error, CustomStringConvertible, Sendable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
