import Dispatch
import OpsEvents

// Pacing: a thread adding far ahead of the work waits a little, so the backlog stays bounded.

extension LiveRuntime {
  /// Unfinished operations above which `addOperation` paces its thread after its step (see
  /// `pace`; it yielded its core from session 10 to 17 of docs/BENCHMARKS.md).
  static let crowdedAt = 1024
  /// Unfinished operations above which `addOperation` returns only once the events published so far
  /// are delivered (docs/BENCHMARKS.md, "Session 11": 1M no-op operations with the lints at limit 4
  /// had 15,000–55,000 unfinished at the peak without it, and a peak RSS of 80–120 MB; with it
  /// 65–74 MB, and 56–58 MB with the backlog's bound lowered to 16,384 as well). Lowered from 8,192
  /// once the lints forgot succeeded operations early ("Session 13": the same row 47 → 41 MB, and no
  /// row of the 100k and 1M grids slower once measured again).
  static let farAheadAt = 2048

  /// An adding thread with more than `crowdedAt` operations unfinished waits, once its step is
  /// over, until `paceLow` are left or `paceWait` seconds pass, whichever comes first. It used to
  /// yield its core after each such step instead: on two cores that was up to one system call an
  /// operation, most returning at once with nothing else to run, and every return took the engine
  /// lock again from the workers (measured in docs/BENCHMARKS.md, "Session 18"). A wait that runs
  /// out means the work is not moving (a suspended queue, long work, or an operation adding from
  /// inside its own work): pacing then stops until `crowdedAt - paceLow` more have finished.
  /// Not on the delivery queue: a subscriber that adds must not wait for work whose events wait
  /// for it.
  func pace() {
    guard DispatchQueue.getSpecific(key: onDelivery) == nil else { return }
    let deadline = EngineLock.deadline(after: Self.paceWait)
    lock.lock()
    pacedAdders += 1
    pacedAddersWoken = false
    while unfinished > Self.paceLow && lock.wait(until: deadline) {}
    pacedAdders -= 1
    if unfinished > Self.paceLow {
      paceTimeouts += 1
      paceAgainAt = core.finishedCount + Self.crowdedAt - Self.paceLow
    }
    lock.unlock()
  }

  /// Unfinished operations an adding thread waits for (see `pace`).
  static let paceLow = 512
  /// The longest an adding thread waits in `pace`, in seconds: 512 no-op operations take about
  /// a millisecond on two cores.
  static let paceWait = 0.002

  /// Pacing waits that ran out (tests).
  var pacingTimeouts: Int { withCore { _ in paceTimeouts } }
}
