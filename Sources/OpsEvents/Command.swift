/// An intervention: what a key press or a scripted scenario action asks of the engine.
public enum Command: Sendable, Equatable, Codable {
  case cancel(operation: String)
  case cancelAll(queue: String)
  case suspend(queue: String)
  case resume(queue: String)
  /// `nil` means Foundation's default (no limit).
  case setMaxConcurrent(queue: String, value: Int?)

  public var name: String {
    switch self {
    case .cancel: "cancel"
    case .cancelAll: "cancelAll"
    case .suspend: "suspend"
    case .resume: "resume"
    case .setMaxConcurrent: "maxConcurrent"
    }
  }

  public var target: String {
    switch self {
    case .cancel(let o): o
    case .cancelAll(let q), .suspend(let q), .resume(let q), .setMaxConcurrent(let q, _): q
    }
  }

  public var value: String? {
    if case .setMaxConcurrent(_, let v) = self { return v.map(String.init) ?? "default" }
    return nil
  }
}

/// What became of a command. A rejected command changed nothing and says why.
public enum CommandOutcome: Sendable, Equatable {
  case applied
  case rejected(String)

  public var isApplied: Bool { self == .applied }
}
