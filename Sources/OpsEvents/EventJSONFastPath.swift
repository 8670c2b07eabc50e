/// The JSON line of the most frequent events (state changes, starts and finishes: nearly all of a
/// large trace) written field by field straight into the buffer. The general path builds an array of
/// `(key, JSONValue)` per event and per cause, which was most of a 450,000-event jsonl trace's writing
/// time. The bytes are the same as the general path's (a test compares them for every cause).
extension Event {
  /// Appends the fields after `type` for the kinds it knows; false (nothing written) for the others.
  func appendFrequentFields(to out: inout [UInt8]) -> Bool {
    switch kind {
    case .state(let o, let from, let to, let cause):
      out.appendField("operation", o)
      out.appendField("from", from.rawValue)
      out.appendField("to", to.rawValue)
      out.appendKey("cause")
      cause.appendJSON(to: &out)
    case .didStart(let o), .completion(let o), .cancelTooLate(let o):
      out.appendField("operation", o)
    case .willFinish(let o, let errors, let cancelled),
      .didFinish(let o, let errors, let cancelled):
      out.appendField("operation", o)
      out.appendKey("errors")
      JSONValue.strings(errors).write(into: &out)
      out.appendKey("cancelled")
      out.appendASCII(cancelled ? "true" : "false")
    case .operationAdded(let o, let q, let p, let qos, let k, let d, let c, let x, let w):
      // Once per operation, but with nine fields: the general path's array of them was a fifth of
      // a large trace's writing.
      out.appendField("operation", o)
      out.appendField("queue", q)
      out.appendField("priority", p.rawValue)
      out.appendField("qos", qos.rawValue)
      out.appendField("kind", k.rawValue)
      out.appendKey("dependencies")
      JSONValue.strings(d).write(into: &out)
      out.appendKey("conditions")
      JSONValue.strings(c).write(into: &out)
      out.appendKey("exclusivity")
      JSONValue.strings(x).write(into: &out)
      out.appendKey("work")
      if let w { DecimalBytes.appendSeconds(w, to: &out) } else { out.appendASCII("null") }
    case .queueAdded, .queueSuspended, .queueResumed, .queueMaxConcurrent, .dependencyAdded,
      .conditionWaiting, .conditionStarted, .conditionResult, .exclusivityWaiting,
      .exclusivityAcquired, .exclusivityReleased, .cancelled, .didProduce, .cycleDetected, .command,
      .warning, .refused:
      return false
    }
    return true
  }
}

extension StateCause {
  /// `JSONValue.object(fields)` written without building the fields.
  func appendJSON(to out: inout [UInt8]) {
    out.appendASCII(#"{"kind":"#)
    JSONValue.writeString(kind, into: &out)
    switch self {
    case .added(let q), .queueResumed(let q):
      out.appendField("queue", q)
    case .dependencyFinished(let d, let n):
      out.appendField("dependency", d)
      out.appendKey("of")
      DecimalBytes.append(n, to: &out)
    case .conditionFailed(let c):
      out.appendField("condition", c)
    case .cancelled(let c), .finishedAtOnce(let c):
      out.appendField("by", c.rawValue)
    case .lockAcquired(let c):
      out.appendField("category", c)
    case .started(let q, let slot, let limit, let after):
      out.appendField("queue", q)
      out.appendKey("slot")
      DecimalBytes.append(slot, to: &out)
      out.appendKey("limit")
      if let limit { DecimalBytes.append(limit, to: &out) } else { out.appendASCII("null") }
      if let after {
        // Nearly every start at a queue's limit: its fields written without building them.
        out.appendKey("after")
        switch after {
        case .slotFreed(let o):
          out.appendASCII(#"{"kind":"slotFreed","by":"#)
          JSONValue.writeString(o, into: &out)
        case .limitRaised(let v):
          out.appendASCII(#"{"kind":"limitRaised","to":"#)
          if let v { DecimalBytes.append(v, to: &out) } else { out.appendASCII("null") }
        case .resumed:
          out.appendASCII(#"{"kind":"resumed""#)
        }
        out.append(UInt8(ascii: "}"))
      }
    case .workThrew(let e):
      out.appendField("error", e)
    case .noticedCancel(let c, let t):
      out.appendField("by", c.rawValue)
      out.appendKey("checkedAt")
      DecimalBytes.appendSeconds(t, to: &out)
    case .childrenFinished(let n):
      out.appendKey("children")
      DecimalBytes.append(n, to: &out)
    case .noDependencies, .conditionsSatisfied, .skippedMain, .workReturned, .ranDespiteCancel,
      .observersNotified, .sampled:
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

  /// `,"key":"value"`, the value escaped as JSON.
  fileprivate mutating func appendField(_ key: StaticString, _ value: String) {
    appendKey(key)
    JSONValue.writeString(value, into: &self)
  }

  /// A literal's bytes (`String(...).utf8` went through the string's storage for each).
  mutating func appendASCII(_ text: StaticString) {
    text.withUTF8Buffer { append(contentsOf: $0) }
  }
}
