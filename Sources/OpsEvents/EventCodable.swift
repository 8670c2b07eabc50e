/// `Codable` in the same flat shape as `jsonLine`: `{"seq":…,"time":…,"type":…, fields…}`.
extension Event: Codable {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(seq, forKey: Key("seq"))
    try c.encode(time, forKey: Key("time"))
    try c.encode(kind.type, forKey: Key("type"))
    try Self.encode(kind.fields, into: &c)
  }

  private static func encode(
    _ fields: [(String, JSONValue)], into c: inout KeyedEncodingContainer<Key>
  ) throws {
    for (name, value) in fields {
      let k = Key(name)
      switch value {
      case .string(let s): try c.encode(s, forKey: k)
      case .number(let d): try c.encode(d, forKey: k)
      case .int(let i): try c.encode(i, forKey: k)
      case .bool(let b): try c.encode(b, forKey: k)
      case .null: try c.encodeNil(forKey: k)
      case .strings(let a): try c.encode(a, forKey: k)
      case .object(let inner):
        var nested = c.nestedContainer(keyedBy: Key.self, forKey: k)
        try encode(inner, into: &nested)
      }
    }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    seq = try c.decode(Int.self, forKey: Key("seq"))
    time = try c.decode(Double.self, forKey: Key("time"))
    let typeName = try c.decode(String.self, forKey: Key("type"))
    guard let type = EventType(name: typeName) else {
      throw DecodingError.dataCorruptedError(
        forKey: Key("type"), in: c, debugDescription: "unknown event type '\(typeName)'")
    }
    func s(_ k: String) throws -> String { try c.decode(String.self, forKey: Key(k)) }
    func so(_ k: String) throws -> String? { try c.decodeIfPresent(String.self, forKey: Key(k)) }
    func a(_ k: String) throws -> [String] { try c.decode([String].self, forKey: Key(k)) }
    func b(_ k: String) throws -> Bool { try c.decode(Bool.self, forKey: Key(k)) }
    func io(_ k: String) throws -> Int? { try c.decodeIfPresent(Int.self, forKey: Key(k)) }
    func e<T: Decodable>(_ k: String, _ t: T.Type) throws -> T {
      try c.decode(T.self, forKey: Key(k))
    }
    switch type {
    case .queueAdded:
      kind = .queueAdded(
        queue: try s("queue"), maxConcurrent: try io("maxConcurrent"),
        suspended: try b("suspended"),
        qos: try e("qos", QoS.self))
    case .queueSuspended: kind = .queueSuspended(queue: try s("queue"))
    case .queueResumed: kind = .queueResumed(queue: try s("queue"))
    case .queueMaxConcurrent:
      kind = .queueMaxConcurrent(queue: try s("queue"), value: try io("value"))
    case .operationAdded:
      kind = .operationAdded(
        operation: try s("operation"), queue: try s("queue"),
        priority: try e("priority", QueuePriority.self),
        qos: try e("qos", QoS.self), kind: try e("kind", OperationKind.self),
        dependencies: try a("dependencies"), conditions: try a("conditions"),
        exclusivity: try c.decodeIfPresent([String].self, forKey: Key("exclusivity")) ?? [],
        work: try c.decodeIfPresent(Double.self, forKey: Key("work")))
    case .dependencyAdded:
      kind = .dependencyAdded(operation: try s("operation"), dependency: try s("dependency"))
    case .state:
      kind = .state(
        operation: try s("operation"), from: try e("from", OperationState.self),
        to: try e("to", OperationState.self),
        cause: try StateCause(json: c.nestedContainer(keyedBy: Key.self, forKey: Key("cause"))))
    case .conditionStarted:
      kind = .conditionStarted(operation: try s("operation"), condition: try s("condition"))
    case .conditionResult:
      kind = .conditionResult(
        operation: try s("operation"), condition: try s("condition"),
        result: try e("result", ConditionResult.self),
        error: try so("error"))
    case .exclusivityWaiting:
      kind = .exclusivityWaiting(
        operation: try s("operation"), category: try s("category"), holder: try s("holder"))
    case .exclusivityAcquired:
      kind = .exclusivityAcquired(operation: try s("operation"), category: try s("category"))
    case .exclusivityReleased:
      kind = .exclusivityReleased(operation: try s("operation"), category: try s("category"))
    case .cancelled:
      kind = .cancelled(
        operation: try s("operation"), errors: try a("errors"),
        cause: try e("cause", CancelCause.self))
    case .cancelTooLate: kind = .cancelTooLate(operation: try s("operation"))
    case .didStart: kind = .didStart(operation: try s("operation"))
    case .didProduce:
      kind = .didProduce(operation: try s("operation"), produced: try s("produced"))
    case .willFinish:
      kind = .willFinish(
        operation: try s("operation"), errors: try a("errors"), cancelled: try b("cancelled"))
    case .didFinish:
      kind = .didFinish(
        operation: try s("operation"), errors: try a("errors"), cancelled: try b("cancelled"))
    case .completion: kind = .completion(operation: try s("operation"))
    case .cycleDetected: kind = .cycleDetected(operations: try a("operations"))
    case .command:
      kind = .command(
        command: try s("command"), target: try s("target"), value: try so("value"),
        source: try e("source", CommandSource.self))
    case .conditionWaiting:
      kind = .conditionWaiting(
        operation: try s("operation"), condition: try s("condition"),
        dependency: try s("dependency"))
    case .refused: kind = .refused(operation: try s("operation"), reason: try s("reason"))
    case .warning:
      kind = .warning(kind: try s("kind"), subject: try s("subject"), message: try s("message"))
    }
  }
}
