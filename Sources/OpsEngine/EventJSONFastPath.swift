/// The JSON line of the most frequent events (state changes, starts and finishes: nearly all of a
/// large trace) written field by field straight into the buffer. The general path builds an array of
/// `(key, JSONValue)` per event and per cause, which was most of a 450,000-event jsonl trace's writing
/// time. The bytes are the same as the general path's (a test compares them for every cause).
extension Event {
  /// Appends the fields after `type` for the kinds it knows; false (nothing written) for the others.
  func appendFrequentFields(to out: inout [UInt8]) -> Bool {
    switch kind {
    case .state(let o, let from, let to, let cause):
      out.appendKey("operation")
      JSONValue.writeString(o, into: &out)
      out.appendKey("from")
      JSONValue.writeString(from.rawValue, into: &out)
      out.appendKey("to")
      JSONValue.writeString(to.rawValue, into: &out)
      out.appendKey("cause")
      cause.appendJSON(to: &out)
    case .didStart(let o), .completion(let o), .cancelTooLate(let o):
      out.appendKey("operation")
      JSONValue.writeString(o, into: &out)
    case .willFinish(let o, let errors, let cancelled),
      .didFinish(let o, let errors, let cancelled):
      out.appendKey("operation")
      JSONValue.writeString(o, into: &out)
      out.appendKey("errors")
      JSONValue.strings(errors).write(into: &out)
      out.appendKey("cancelled")
      out.append(contentsOf: (cancelled ? "true" : "false").utf8)
    default:
      return false
    }
    return true
  }
}

extension StateCause {
  /// `JSONValue.object(fields)` written without building the fields.
  func appendJSON(to out: inout [UInt8]) {
    out.append(contentsOf: #"{"kind":"#.utf8)
    JSONValue.writeString(kind, into: &out)
    switch self {
    case .added(let q), .queueResumed(let q):
      out.appendKey("queue")
      JSONValue.writeString(q, into: &out)
    case .dependencyFinished(let d, let n):
      out.appendKey("dependency")
      JSONValue.writeString(d, into: &out)
      out.appendKey("of")
      out.append(contentsOf: String(n).utf8)
    case .conditionFailed(let c):
      out.appendKey("condition")
      JSONValue.writeString(c, into: &out)
    case .cancelled(let c), .finishedAtOnce(let c):
      out.appendKey("by")
      JSONValue.writeString(c.rawValue, into: &out)
    case .lockAcquired(let c):
      out.appendKey("category")
      JSONValue.writeString(c, into: &out)
    case .started(let q, let slot, let limit, let after):
      out.appendKey("queue")
      JSONValue.writeString(q, into: &out)
      out.appendKey("slot")
      out.append(contentsOf: String(slot).utf8)
      out.appendKey("limit")
      out.append(contentsOf: (limit.map { String($0) } ?? "null").utf8)
      if let after {
        out.appendKey("after")
        JSONValue.object(after.fields).write(into: &out)
      }
    case .workThrew(let e):
      out.appendKey("error")
      JSONValue.writeString(e, into: &out)
    case .noticedCancel(let c, let t):
      out.appendKey("by")
      JSONValue.writeString(c.rawValue, into: &out)
      out.appendKey("checkedAt")
      out.append(contentsOf: formatSeconds(t).utf8)
    case .childrenFinished(let n):
      out.appendKey("children")
      out.append(contentsOf: String(n).utf8)
    case .noDependencies, .conditionsSatisfied, .skippedMain, .workReturned, .ranDespiteCancel,
      .observersNotified:
      break
    }
    out.append(UInt8(ascii: "}"))
  }
}

extension [UInt8] {
  /// `,"key":` for a key of the contract (plain ASCII: nothing to escape).
  fileprivate mutating func appendKey(_ key: StaticString) {
    append(UInt8(ascii: ","))
    append(UInt8(ascii: "\""))
    key.withUTF8Buffer { append(contentsOf: $0) }
    append(UInt8(ascii: "\""))
    append(UInt8(ascii: ":"))
  }
}
