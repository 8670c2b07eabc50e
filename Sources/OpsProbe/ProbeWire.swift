import Foundation
import OpsEngine
import OpsEvents
import OpsInput

/// The probe's line protocol, shared by the program and the viewer. Program → viewer: a header line
/// (`{"format":"opsview-probe","version":2,...}`), then events as `trace --format jsonl` prints them,
/// `{"dropped":N}` whenever the bounded buffer had to drop events, and, where the events a viewer
/// gets do not follow what it has (it came late, or events were dropped), a snapshot of where the
/// program is: `{"snapshot":SEQ,"time":T,"events":N}` then N events of the same contract, numbered
/// from 1, that build that state from nothing (the live events go on after SEQ). Viewer → program: commands,
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
    /// Events of the story the probe let go before this viewer connected (taken by earlier viewers).
    /// Read from probes that send no snapshot; a probe that does sends 0.
    public var notKept = 0
  }

  static func headerFields(_ h: Header) -> [String: Any & Sendable] {
    [
      "format": format, "version": EventFormat.version, "program": h.program, "pid": Int(h.pid),
      "control": h.control, "sampleInterval": h.sampleInterval, "started": h.started,
    ]
  }

  static func headerLine(_ h: Header) -> String { json(headerFields(h)) }

  /// The token a viewer presents first on a TCP probe: `{"token":"…"}`.
  static func tokenLine(_ token: String) -> String { json(["token": token]) }

  static func token(_ line: [UInt8]) -> String? {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
      return nil
    }
    return o["token"] as? String
  }

  /// The header, or why the first line is not one this viewer can read.
  public static func header(_ line: [UInt8]) throws(ProbeError) -> Header {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      o["format"] as? String == format
    else { throw ProbeError("not an opsview probe: the first line is not its header") }
    if let why = o["refused"] as? String {
      throw ProbeError(
        "the program refused this viewer: \(ControlCharacters.printable(String(why.prefix(300))))",
        refused: true)
    }
    guard let version = o["version"] as? Int, version == EventFormat.version else {
      throw ProbeError(
        "the probe speaks event format version \(o["version"] ?? "?"); this opsview reads version \(EventFormat.version)"
      )
    }
    return Header(
      program: o["program"] as? String ?? "?", pid: Int32(exactly: o["pid"] as? Int ?? 0) ?? 0,
      control: o["control"] as? Bool ?? false,
      sampleInterval: min(max(o["sampleInterval"] as? Double ?? 0, 0), 3600),
      started: o["started"] as? Double ?? 0,
      notKept: max(o["notKept"] as? Int ?? 0, 0))
  }

  /// A command line; `operations`: for `cancelAll`, the operations the viewer named (the probe
  /// cancels only those).
  public static func commandLine(_ c: Command, operations: [String]? = nil) -> String {
    var o: [String: Any] = ["command": c.name]
    if let operations { o["operations"] = operations }
    switch c {
    case .cancel(let op): o["target"] = op
    case .cancelAll(let q), .suspend(let q), .resume(let q): o["target"] = q
    case .setMaxConcurrent(let q, let v):
      o["target"] = q
      o["value"] = v.map { $0 as Any } ?? NSNull()
    }
    return json(o)
  }

  /// A viewer's command as the probe read it: the command, and for a confirmed `C` the operations
  /// the viewer named (only those are cancelled).
  struct Request: Sendable, Equatable {
    var command: Command
    var operations: [String]?
  }

  /// The largest limit a viewer may set: beyond it a typo, not a decision.
  static let maxLimit = 10_000
  /// The longest target a command may name (in Unicode scalars).
  static let maxTarget = 200
  /// The most operations a confirmed `cancelAll` may name.
  static let maxNamed = 1_000

  /// Reads and validates one command line. Nothing that fails here reaches a queue: the reason is
  /// printable (no control characters of the line are copied into it) and short.
  static func request(_ line: [UInt8]) -> Result<Request, CommandRefusal> {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
      return .failure(CommandRefusal(target: "?", reason: "not a JSON object"))
    }
    guard let name = o["command"] as? String else {
      return .failure(CommandRefusal(target: "?", reason: "no \"command\" string"))
    }
    let target: String
    switch validName(o["target"], what: "the target") {
    case .success(let t): target = t
    case .failure(let why): return .failure(CommandRefusal(target: "?", reason: why.text))
    }
    func refuse(_ why: String) -> Result<Request, CommandRefusal> {
      .failure(CommandRefusal(target: target, reason: why))
    }
    switch name {
    case "cancel": return .success(Request(command: .cancel(operation: target)))
    case "suspend": return .success(Request(command: .suspend(queue: target)))
    case "resume": return .success(Request(command: .resume(queue: target)))
    case "cancelAll":
      guard let raw = o["operations"] else {
        return .success(Request(command: .cancelAll(queue: target)))
      }
      guard let list = raw as? [Any], list.count <= maxNamed else {
        return refuse("\"operations\" must be a list of at most \(maxNamed) names")
      }
      var names: [String] = []
      for item in list {
        switch validName(item, what: "an operation name") {
        case .success(let n): names.append(n)
        case .failure(let why): return refuse(why.text)
        }
      }
      return .success(Request(command: .cancelAll(queue: target), operations: names))
    case "maxConcurrent":
      guard let raw = o["value"] else {
        return refuse(
          "maxConcurrent needs \"value\": a whole number 0...\(maxLimit), or null for no limit")
      }
      if raw is NSNull {
        return .success(Request(command: .setMaxConcurrent(queue: target, value: nil)))
      }
      guard let value = wholeNumber(raw), (0...maxLimit).contains(value) else {
        return refuse(
          "maxConcurrent \"value\" must be a whole number 0...\(maxLimit), or null for no limit; got \(describe(raw))"
        )
      }
      return .success(Request(command: .setMaxConcurrent(queue: target, value: value)))
    default:
      return .failure(
        CommandRefusal(
          target: target,
          reason:
            "unknown command \(describe(name)): cancel, cancelAll, suspend, resume or maxConcurrent"
        ))
    }
  }

  /// The command, or nil when the line is not a valid one (see `request`).
  static func command(_ line: [UInt8]) -> Command? {
    if case .success(let r) = request(line) { r.command } else { nil }
  }

  /// A name a viewer sent: a string of 1...maxTarget scalars that the name policy accepts (what
  /// every viewer's reader accepts: a refusal or a command event echoes it to all of them).
  struct Why: Error {
    let text: String
  }

  private static func validName(_ raw: Any?, what: String) -> Result<String, Why> {
    guard let s = raw as? String else { return .failure(Why(text: "\(what) must be a string")) }
    if s.isEmpty { return .failure(Why(text: "\(what) is empty")) }
    if s.unicodeScalars.count > maxTarget {
      return .failure(Why(text: "\(what) is longer than \(maxTarget) characters"))
    }
    if s.unicodeScalars.contains(where: { ControlCharacters.isControl($0.value) }) {
      return .failure(Why(text: "\(what) carries a control character"))
    }
    if let problem = TextPolicy.nameProblem(s) {
      return .failure(Why(text: problem.description(what: what)))
    }
    return .success(s)
  }

  /// An integer given as a JSON number (not a boolean, a string or a fraction).
  private static func wholeNumber(_ raw: Any) -> Int? {
    guard let n = raw as? NSNumber, !(raw is String) else { return nil }
    let d = n.doubleValue
    guard !isBoolean(n), d.rounded() == d, abs(d) < 1e9 else { return nil }
    return Int(d)
  }

  private static func isBoolean(_ n: NSNumber) -> Bool {
    // JSONSerialization gives booleans as __NSCFBoolean (objCType "c"), numbers as NSNumber.
    String(cString: n.objCType) == "c" || "\(type(of: n))".contains("Boolean")
  }

  /// A value as a refusal may quote it: short and printable.
  static func describe(_ raw: Any) -> String {
    let text: String
    if let s = raw as? String {
      text = "\"" + s + "\""
    } else if let n = raw as? NSNumber, !isBoolean(n) {
      text = "\(n)"
    } else if let n = raw as? NSNumber {
      text = n.boolValue ? "true" : "false"
    } else if raw is [Any] {
      text = "a list"
    } else if raw is [String: Any] {
      text = "an object"
    } else {
      text = "\(raw)"
    }
    let short =
      text.unicodeScalars.count > 40
      ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
    return ControlCharacters.printable(short)
  }

  static func json(_ o: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}

/// Why the probe refused a viewer's command: what it named (printable) and the reason.
struct CommandRefusal: Error, Sendable, Equatable {
  var target: String
  var reason: String
}

public struct ProbeError: Error, CustomStringConvertible, Sendable {
  public let description: String
  /// The program refused the viewer (too many viewers, no token, another user): not a broken stream.
  public let refused: Bool
  public init(_ description: String, refused: Bool = false) {
    self.description = description
    self.refused = refused
  }
}
