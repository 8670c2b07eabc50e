/// A JSON value small enough for the event contract; keeps key order so traces are byte-identical.
public enum JSONValue: Sendable, Equatable {
  case string(String)
  case number(Double)
  case int(Int)
  case bool(Bool)
  case null
  case strings([String])
  /// A nested object, keys in contract order (a state's `cause`).
  case object([(String, JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.int(let x), .int(let y)): x == y
    case (.bool(let x), .bool(let y)): x == y
    case (.null, .null): true
    case (.strings(let x), .strings(let y)): x == y
    case (.object(let x), .object(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
    default: false
    }
  }

  /// Appends the value as JSON text (UTF-8). Bytes, not `String` appends: building traces of
  /// hundreds of thousands of events piece by piece as strings would be most of a jsonl trace's
  /// time.
  func write(into out: inout [UInt8]) {
    switch self {
    case .string(let s): JSONValue.writeString(s, into: &out)
    case .number(let d): out.append(contentsOf: formatSeconds(d).utf8)
    case .int(let i): out.append(contentsOf: String(i).utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .null: out.append(contentsOf: "null".utf8)
    case .strings(let a):
      out.append(UInt8(ascii: "["))
      for (i, s) in a.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(s, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let fields):
      out.append(UInt8(ascii: "{"))
      for (i, (k, v)) in fields.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.writeString(k, into: &out)
        out.append(UInt8(ascii: ":"))
        v.write(into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A JSON string. Besides what JSON requires (controls, `"` and `\`), DEL and the C1 controls
  /// (U+0080–U+009F, which terminals obey as escape sequences) are written as `\u00XX`, so a line
  /// printed to a terminal can never move the cursor or change its title (`trace --format jsonl`).
  public static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Almost every string (names, types, keys) has nothing to escape: copy its bytes at once.
    let copied =
      s.utf8.withContiguousStorageIfAvailable { bytes in
        guard !bytes.contains(where: mayNeedEscape) else { return false }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if copied {
      out.append(UInt8(ascii: "\""))
      return
    }
    var previous: UInt8 = 0
    for byte in s.utf8 {
      defer { previous = byte }
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
      case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
      case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
      case 0..<0x20, 0x7F: appendUnicodeEscape(UInt32(byte), into: &out)
      case 0x80...0x9F where previous == 0xC2:
        // The C1 control's lead byte 0xC2 was already written: take it back.
        out.removeLast()
        appendUnicodeEscape(UInt32(byte), into: &out)
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// Bytes that start something to escape; 0xC2 leads U+0080–U+00BF, where the C1 controls are.
  private static func mayNeedEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
      || byte == 0xC2
  }

  private static func appendUnicodeEscape(_ value: UInt32, into out: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    out.append(contentsOf: #"\u00"#.utf8)
    out.append(hex[Int(value >> 4) & 0xF])
    out.append(hex[Int(value) & 0xF])
  }
}

/// Seconds printed the same way everywhere: shortest form at microsecond resolution ("0", "1.5", "2.125").
/// One way of writing them: the bytes `DecimalBytes.appendSeconds` writes into trace lines.
public func formatSeconds(_ seconds: Double) -> String {
  var bytes: [UInt8] = []
  DecimalBytes.appendSeconds(seconds, to: &bytes)
  return String(decoding: bytes, as: UTF8.self)
}

extension EventKind {
  /// The event's fields in contract order (after `seq`, `time`, `type`).
  public var fields: [(String, JSONValue)] {
    func opt(_ i: Int?) -> JSONValue { i.map { .int($0) } ?? .null }
    func opt(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    switch self {
    case .queueAdded(let q, let m, let s, let qos):
      return [
        ("queue", .string(q)), ("maxConcurrent", opt(m)), ("suspended", .bool(s)),
        ("qos", .string(qos.rawValue)),
      ]
    case .queueSuspended(let q), .queueResumed(let q):
      return [("queue", .string(q))]
    case .queueMaxConcurrent(let q, let v):
      return [("queue", .string(q)), ("value", opt(v))]
    case .operationAdded(let o, let q, let p, let qos, let k, let d, let c, let x, let w):
      return [
        ("operation", .string(o)), ("queue", .string(q)), ("priority", .string(p.rawValue)),
        ("qos", .string(qos.rawValue)), ("kind", .string(k.rawValue)),
        ("dependencies", .strings(d)),
        ("conditions", .strings(c)), ("exclusivity", .strings(x)),
        ("work", w.map { .number($0) } ?? .null),
      ]
    case .dependencyAdded(let o, let d):
      return [("operation", .string(o)), ("dependency", .string(d))]
    case .state(let o, let f, let t, let cause):
      return [
        ("operation", .string(o)), ("from", .string(f.rawValue)), ("to", .string(t.rawValue)),
        ("cause", .object(cause.fields)),
      ]
    case .conditionStarted(let o, let c):
      return [("operation", .string(o)), ("condition", .string(c))]
    case .conditionWaiting(let o, let c, let d):
      return [("operation", .string(o)), ("condition", .string(c)), ("dependency", .string(d))]
    case .refused(let o, let r):
      return [("operation", .string(o)), ("reason", .string(r))]
    case .conditionResult(let o, let c, let r, let e):
      return [
        ("operation", .string(o)), ("condition", .string(c)), ("result", .string(r.rawValue)),
        ("error", opt(e)),
      ]
    case .exclusivityWaiting(let o, let c, let h):
      return [("operation", .string(o)), ("category", .string(c)), ("holder", .string(h))]
    case .exclusivityAcquired(let o, let c), .exclusivityReleased(let o, let c):
      return [("operation", .string(o)), ("category", .string(c))]
    case .cancelled(let o, let e, let cause):
      return [
        ("operation", .string(o)), ("errors", .strings(e)), ("cause", .string(cause.rawValue)),
      ]
    case .cancelTooLate(let o), .didStart(let o), .completion(let o):
      return [("operation", .string(o))]
    case .didProduce(let o, let p):
      return [("operation", .string(o)), ("produced", .string(p))]
    case .willFinish(let o, let e, let c), .didFinish(let o, let e, let c):
      return [("operation", .string(o)), ("errors", .strings(e)), ("cancelled", .bool(c))]
    case .cycleDetected(let ops):
      return [("operations", .strings(ops))]
    case .command(let c, let t, let v, let s):
      return [
        ("command", .string(c)), ("target", .string(t)), ("value", opt(v)),
        ("source", .string(s.rawValue)),
      ]
    case .warning(let k, let subject, let m):
      return [("kind", .string(k)), ("subject", .string(subject)), ("message", .string(m))]
    }
  }
}

extension Event {
  /// One JSON object on one line: `seq`, `time`, `type`, then the type's fields, always in that order.
  public var jsonLine: String {
    var out: [UInt8] = []
    appendJSONLine(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `jsonLine`'s bytes (no newline): writers of many events fill one buffer with them.
  public func appendJSONLine(to out: inout [UInt8]) {
    // Room for a usual line, grown by doubling: reserving exactly `count + 192` each time made
    // every line of a long buffer (a handout's events) copy the whole buffer.
    if out.capacity - out.count < 192 { out.reserveCapacity(max(out.count * 2, out.count + 192)) }
    out.appendASCII(#"{"seq":"#)
    DecimalBytes.append(seq, to: &out)
    out.appendASCII(#","time":"#)
    DecimalBytes.appendSeconds(time, to: &out)
    out.appendASCII(#","type":"#)
    JSONValue.writeString(kind.type, into: &out)
    if !appendFrequentFields(to: &out) { appendFields(to: &out) }
    out.append(UInt8(ascii: "}"))
  }

  /// The fields after `type` through the general path (every kind).
  func appendFields(to out: inout [UInt8]) {
    for (key, value) in kind.fields {
      out.append(UInt8(ascii: ","))
      JSONValue.writeString(key, into: &out)
      out.append(UInt8(ascii: ":"))
      value.write(into: &out)
    }
  }
}
