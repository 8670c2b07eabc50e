import Foundation
import Testing

@testable import OpsEngine
@testable import OpsEvents

/// Workers that ran out of jobs look for another before they leave (`LiveRuntime.work`): a job
/// queued meanwhile is theirs, and no worker is requested for it.
@Suite struct LiveWorkerLingerTests {
  @Test func aWorkerIsRequestedOnlyForJobsNobodyWillTake() {
    // Nobody looking: any job not handed over needs one.
    #expect(LiveRuntime.jobsWantAWorker(waiting: 1, reserved: 0, lingering: 0))
    #expect(!LiveRuntime.jobsWantAWorker(waiting: 0, reserved: 0, lingering: 0))
    // The job a finishing worker takes over needs none.
    #expect(!LiveRuntime.jobsWantAWorker(waiting: 1, reserved: 1, lingering: 0))
    // One looking worker takes one job, not two.
    #expect(!LiveRuntime.jobsWantAWorker(waiting: 1, reserved: 0, lingering: 1))
    #expect(LiveRuntime.jobsWantAWorker(waiting: 2, reserved: 0, lingering: 1))
    #expect(!LiveRuntime.jobsWantAWorker(waiting: 3, reserved: 1, lingering: 2))
  }

  /// Bursts of a few operations with pauses between them: workers run out of jobs, look, and leave
  /// or take the next burst's jobs. Every burst finishes, on both QoS levels used, each operation
  /// once.
  @Test func burstsWithPausesAllFinish() throws {
    let rt = LiveRuntime(lints: [])
    let events = EventLog(rt)
    try rt.addQueue(QueueSpec(name: "wide", maxConcurrent: nil))
    try rt.addQueue(QueueSpec(name: "serial", maxConcurrent: 1, qos: .utility))
    var names: [String] = []
    for round in 0..<150 {
      var burst: [String] = []
      for k in 0..<(1 + round % 3) {
        let name = "r\(round)-\(k)"
        try rt.addOperation(
          live(name), work: .sync { _ in }, on: k % 2 == 0 ? "wide" : "serial")
        burst.append(name)
      }
      guard rt.waitUntilFinished(burst, timeout: liveTimeout) else {
        Issue.record("round \(round) did not finish: \(burst)")
        return
      }
      names += burst
      // A pause on every other round, long enough for the looking workers to leave: the next
      // burst then needs a worker requested (a worker counted as looking after it left would
      // leave that burst's jobs waiting for good). A workload's shape, not a timing assertion.
      if round % 2 == 1 { usleep(2_000) }
    }
    #expect(rt.waitUntilFinished(timeout: liveTimeout))
    let finished = events.finishOrder
    #expect(finished.count == names.count && Set(finished) == Set(names))
  }
}
