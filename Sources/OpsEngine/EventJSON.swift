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

  func write(into out: inout String) {
    switch self {
    case .string(let s): JSONValue.writeString(s, into: &out)
    case .number(let d): out += formatSeconds(d)
    case .int(let i): out += String(i)
    case .bool(let b): out += b ? "true" : "false"
    case .null: out += "null"
    case .strings(let a):
      out += "["
      for (i, s) in a.enumerated() {
        if i > 0 { out += "," }
        JSONValue.writeString(s, into: &out)
      }
      out += "]"
    case .object(let fields):
      out += "{"
      for (i, (k, v)) in fields.enumerated() {
        if i > 0 { out += "," }
        JSONValue.writeString(k, into: &out)
        out += ":"
        v.write(into: &out)
      }
      out += "}"
    }
  }

  static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

/// Seconds printed the same way everywhere: shortest form at microsecond resolution ("0", "1.5", "2.125").
public func formatSeconds(_ seconds: Double) -> String {
  let micros = Int64((seconds * 1_000_000).rounded())
  let sign = micros < 0 ? "-" : ""
  let m = abs(micros)
  let whole = m / 1_000_000
  var frac = m % 1_000_000
  if frac == 0 { return sign + String(whole) }
  var digits = 6
  while frac % 10 == 0 {
    frac /= 10
    digits -= 1
  }
  let f = String(frac)
  return sign + String(whole) + "." + String(repeating: "0", count: digits - f.count) + f
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
    var out = "{\"seq\":" + String(seq) + ",\"time\":" + formatSeconds(time) + ",\"type\":"
    JSONValue.writeString(kind.type, into: &out)
    for (key, value) in kind.fields {
      out += ","
      JSONValue.writeString(key, into: &out)
      out += ":"
      value.write(into: &out)
    }
    out += "}"
    return out
  }
}
