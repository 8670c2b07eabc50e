/// Seconds with a fixed number of decimals ("12.500" with 3, "3.40" with 2), computed in integers
/// so output never varies: the one formatter behind the trace's times and the board's clock.
/// Beyond what 64 bits of units hold (and for nan or inf), Swift's own description: readers bound
/// times to the clock's end, but a formatter must not trap.
public func secondsText(_ seconds: Double, decimals: Int) -> String {
  var scale: Int64 = 1
  for _ in 0..<min(max(decimals, 0), 18) { scale *= 10 }
  guard abs(seconds * Double(scale)) < 9e18 else { return String(seconds) }
  let units = Int64((seconds * Double(scale)).rounded())
  let sign = units < 0 ? "-" : ""
  let u = abs(units)
  guard decimals > 0 else { return sign + String(u) }
  let frac = String(u % scale)
  return sign + String(u / scale) + "." + String(repeating: "0", count: decimals - frac.count)
    + frac
}

/// The one text for a concurrency limit: the number, or ∞ for none (Foundation's default, -1).
public func limitText(_ limit: Int?) -> String { limit.map(String.init) ?? "∞" }
