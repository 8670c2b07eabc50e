/// How long the input loop may sleep. Pure, so the pacing rules are tested without a clock.
public enum FramePacing {
  /// Frames are at least this far apart while playing: at most ~30 redraws a second.
  public static let minimumFrameInterval = 1.0 / 30.0
  /// The longest single wait while animating; longer delays are just several waits.
  static let longestWait = 3_600.0

  /// The `wtimeout` for the next wait: -1 (block until input) when nothing animates, otherwise the
  /// board's delay, but never sooner than the frame cap allows after the last tick (ticks, not
  /// drawn frames, so that a board asking for delay 0 without visible change cannot spin).
  public static func timeoutMilliseconds(nextFrameDelay: Double?, sinceLastTick: Double) -> Int32 {
    guard let delay = nextFrameDelay, !delay.isNaN else { return -1 }
    let capped = max(delay, minimumFrameInterval - max(0, sinceLastTick))
    let seconds = min(max(0, capped), longestWait)
    return Int32((seconds * 1000).rounded(.up))
  }
}

extension FramePacing {
  /// Slack over the requested wait that still counts as real playing time (a slow frame).
  static let tickSlack = 0.25

  /// The `elapsed` to pass to `tick`: the measured time, but no more than the wait the board asked
  /// for plus some slack. A longer gap means the process was stopped (Ctrl-Z, a debugger, a frozen
  /// laptop), and the scenario should continue where it was rather than jump ahead.
  public static func tickElapsed(measured: Double, requestedDelay: Double) -> Double {
    let expected = max(requestedDelay, minimumFrameInterval) + tickSlack
    return min(max(0, measured), expected)
  }
}
