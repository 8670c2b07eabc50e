/// A state's `cause` in the JSON contract: `{"kind":"dependencyFinished","dependency":"download","of":2}`.
extension StateCause {
  var fields: [(String, JSONValue)] {
    var f: [(String, JSONValue)] = [("kind", .string(kind))]
    switch self {
    case .added(let q): f.append(("queue", .string(q)))
    case .dependencyFinished(let d, let n): f += [("dependency", .string(d)), ("of", .int(n))]
    case .queueResumed(let q): f.append(("queue", .string(q)))
    case .conditionFailed(let c): f.append(("condition", .string(c)))
    case .cancelled(let c), .finishedAtOnce(let c): f.append(("by", .string(c.rawValue)))
    case .lockAcquired(let c): f.append(("category", .string(c)))
    case .started(let q, let slot, let limit, let after):
      f += [
        ("queue", .string(q)), ("slot", .int(slot)), ("limit", limit.map { .int($0) } ?? .null),
      ]
      if let after { f.append(("after", .object(after.fields))) }
    case .workThrew(let e): f.append(("error", .string(e)))
    case .noticedCancel(let c, let t):
      f += [("by", .string(c.rawValue)), ("checkedAt", .number(t))]
    case .childrenFinished(let n): f.append(("children", .int(n)))
    case .noDependencies, .conditionsSatisfied, .skippedMain, .workReturned, .ranDespiteCancel,
      .observersNotified, .sampled:
      break
    }
    return f
  }

  /// Reads a cause back from its JSON object (recordings, `opsview trace FILE.jsonl`).
  init(json c: KeyedDecodingContainer<Event.Key>) throws {
    func s(_ k: String) throws -> String { try c.decode(String.self, forKey: Event.Key(k)) }
    func i(_ k: String) throws -> Int { try c.decode(Int.self, forKey: Event.Key(k)) }
    func by() throws -> CancelCause { try c.decode(CancelCause.self, forKey: Event.Key("by")) }
    let name = try s("kind")
    guard let kind = CauseKind(name: name) else {
      throw DecodingError.dataCorruptedError(
        forKey: Event.Key("kind"), in: c, debugDescription: "unknown cause '\(name)'")
    }
    switch kind {
    case .added: self = .added(queue: try s("queue"))
    case .noDependencies: self = .noDependencies
    case .dependencyFinished: self = .dependencyFinished(try s("dependency"), of: try i("of"))
    case .queueResumed: self = .queueResumed(try s("queue"))
    case .conditionsSatisfied: self = .conditionsSatisfied
    case .conditionFailed: self = .conditionFailed(try s("condition"))
    case .cancelled: self = .cancelled(try by())
    case .lockAcquired: self = .lockAcquired(category: try s("category"))
    case .started:
      var after: StartTrigger?
      if c.contains(Event.Key("after")) {
        let a = try c.nestedContainer(keyedBy: Event.Key.self, forKey: Event.Key("after"))
        after = try StartTrigger(json: a)
      }
      self = .started(
        queue: try s("queue"), slot: try i("slot"),
        limit: try c.decodeIfPresent(Int.self, forKey: Event.Key("limit")), after: after)
    case .skippedMain: self = .skippedMain
    case .workReturned: self = .workReturned
    case .workThrew: self = .workThrew(try s("error"))
    case .noticedCancel:
      self = .noticedCancel(
        try by(), at: try c.decode(Double.self, forKey: Event.Key("checkedAt")))
    case .finishedAtOnce: self = .finishedAtOnce(try by())
    case .ranDespiteCancel: self = .ranDespiteCancel
    case .childrenFinished: self = .childrenFinished(try i("children"))
    case .observersNotified: self = .observersNotified
    case .sampled: self = .sampled
    }
  }
}

extension StateCause.StartTrigger {
  var fields: [(String, JSONValue)] {
    switch self {
    case .slotFreed(let o): [("kind", .string("slotFreed")), ("by", .string(o))]
    case .limitRaised(let v):
      [("kind", .string("limitRaised")), ("to", v.map { .int($0) } ?? .null)]
    case .resumed: [("kind", .string("resumed"))]
    }
  }

  init(json c: KeyedDecodingContainer<Event.Key>) throws {
    let kind = try c.decode(String.self, forKey: Event.Key("kind"))
    switch kind {
    case "slotFreed": self = .slotFreed(by: try c.decode(String.self, forKey: Event.Key("by")))
    case "limitRaised":
      self = .limitRaised(to: try c.decodeIfPresent(Int.self, forKey: Event.Key("to")))
    case "resumed": self = .resumed
    default:
      throw DecodingError.dataCorruptedError(
        forKey: Event.Key("kind"), in: c, debugDescription: "unknown start trigger '\(kind)'")
    }
  }
}
