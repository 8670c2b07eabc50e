import OpsEngine
import OpsEvents

/// Virtual seconds as the board shows them, with two decimals ("3.40").
public func clockText(_ seconds: Double) -> String { secondsText(seconds, decimals: 2) }

/// A short duration for narrow columns: `0.25s`, `12.5s`, `340s`, `58m`.
public func durationText(_ seconds: Double) -> String {
  let s = max(0, seconds)
  if s < 9.995 { return clockText(s) + "s" }
  if s < 99.95 { return secondsText(s, decimals: 1) + "s" }
  guard s < 9e18 else { return "∞" }
  let whole = Int64(s.rounded())
  if whole < 10_000 { return String(whole) + "s" }
  return String(whole / 60) + "m"
}
