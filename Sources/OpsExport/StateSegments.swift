import OpsEngine
import OpsEvents

/// A stretch of time an operation spent in one state, read from its `history` in the projection.
struct StateSegment: Sendable {
  let state: OperationState
  let start: Double
  let end: Double
  /// Why it entered the state (nil for initialized).
  let cause: StateCause?
  /// Still in this state when the export was taken.
  let open: Bool
}

extension OperationInfo {
  /// The states it spent time in, in order; finished and zero-length visits are left out. An
  /// unfinished state lasts until `end`.
  func segments(until end: Double) -> [StateSegment] {
    var out: [StateSegment] = []
    out.reserveCapacity(history.count)
    for (i, visit) in history.enumerated() where visit.state != .finished {
      let last = i + 1 == history.count
      let stop = last ? end : history[i + 1].time
      guard stop > visit.time else { continue }
      out.append(
        StateSegment(
          state: visit.state, start: visit.time, end: stop, cause: visit.cause, open: last))
    }
    return out
  }

  /// When it entered `state`, if it did.
  func entered(_ state: OperationState) -> Double? {
    history.first { $0.state == state }?.time
  }
}

/// Seconds to whole microseconds: every export's timestamps, exact and identical on every run.
func micros(_ seconds: Double) -> Int { Int((seconds * 1_000_000).rounded()) }
