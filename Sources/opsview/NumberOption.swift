import OpsEngine
import OpsEvents

/// The bounds of numeric options, and the messages that state them with the value found.
enum NumberOption {
  static let maxSpeed = 1000.0
  /// The engine's longest span of virtual time.
  static let maxUntil = VirtualRuntime.maxSeconds
  static let maxUntilText = String(Int(maxUntil))

  /// nil when `speed` is usable: > 0 and <= 1000.
  static func speedProblem(_ speed: Double) -> String? {
    guard !(speed > 0 && speed <= maxSpeed) else { return nil }
    return "--speed must be greater than 0 and at most \(Int(maxSpeed)), found \(shown(speed))"
  }

  /// nil when `until` is usable: from 0 to the engine's longest span.
  static func untilProblem(_ until: Double) -> String? {
    guard !(until >= 0 && until <= maxUntil) else { return nil }
    return "--until must be a number of seconds from 0 to \(maxUntilText), found \(shown(until))"
  }

  /// The value as typed, more or less: `-1`, `0.5`, `inf`, `nan`, `1e+13`.
  static func shown(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }
}
