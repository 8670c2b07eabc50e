/// Foundation's `Operation.QueuePriority`, with its raw values.
public enum QueuePriority: String, Codable, Sendable, CaseIterable {
  case veryLow, low, normal, high, veryHigh

  /// 0 (veryLow) … 4 (veryHigh): an index for per-priority lists.
  public var level: Int {
    switch self {
    case .veryLow: 0
    case .low: 1
    case .normal: 2
    case .high: 3
    case .veryHigh: 4
    }
  }

  public var value: Int {
    switch self {
    case .veryLow: -8
    case .low: -4
    case .normal: 0
    case .high: 4
    case .veryHigh: 8
    }
  }
}

/// A quality of service, as Foundation's `QualityOfService` has them (named apart from it so both
/// can be imported in one file).
public enum QoS: String, Codable, Sendable, CaseIterable {
  case userInteractive, userInitiated, utility, background, `default`

  /// The priority Foundation derives for an operation without an explicit one on a non-serial queue.
  public var derivedPriority: QueuePriority {
    switch self {
    case .userInteractive: .veryHigh
    case .userInitiated: .high
    case .utility: .low
    case .background: .veryLow
    case .default: .normal
    }
  }
}
