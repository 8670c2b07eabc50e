import OpsEngine
import OpsEvents

/// The board's words for values: qos in narrow columns, speeds, limits.
enum BoardText {
  static func qos(_ q: QoS) -> String {
    switch q {
    case .userInteractive: "interactive"
    case .userInitiated: "initiated"
    case .utility: "utility"
    case .background: "background"
    case .default: "default"
    }
  }

  /// `0.5×`, `2×`, `0.33×`: at most two decimals, none when whole.
  static func speed(_ s: Double) -> String {
    let hundredths = Int64((s * 100).rounded())
    var text = String(hundredths / 100)
    let frac = hundredths % 100
    if frac != 0 {
      text += "." + (frac < 10 ? "0" : "") + String(frac)
      while text.hasSuffix("0") { text.removeLast() }
    }
    return text + "×"
  }
}
