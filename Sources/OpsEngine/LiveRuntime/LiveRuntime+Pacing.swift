import Dispatch
import OpsEvents

// Pacing: a thread adding far ahead of the work waits a little, so the backlog stays bounded.

extension LiveRuntime {
  /// Unfinished operations above which `addOperation` paces its thread after its step (see `pace`).
  static let crowdedAt = 1024
  /// Unfinished operations above which `addOperation` returns only once the events published so far
  /// are delivered: otherwise a program adding a million operations runs tens of thousands ahead of
  /// the lints' fold, and those unfinished records set the run's peak memory.
  static let farAheadAt = 2048

  /// An adding thread with more than `crowdedAt` operations unfinished waits, once its step is
  /// over, until `paceLow` are left or `paceWait` seconds pass, whichever comes first. A wait, not
  /// a yield after each step: on two cores a yield is up to one system call an operation, most
  /// returning at once with nothing else to run, each return taking the engine lock again from the
  /// workers. A wait that runs out means the work is not moving (a suspended queue, long work, or
  /// an operation adding from inside its own work): pacing then stops until `crowdedAt - paceLow`
  /// more have finished. Not on the delivery queue: a subscriber that adds must not wait for work
  /// whose events wait for it.
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
