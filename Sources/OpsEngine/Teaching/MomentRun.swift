import OpsEvents

/// Plays a virtual runtime to its end the way the board plays it when nobody presses a key, stopping
/// where the board stops for each moment (the same `MomentTracker` rules), and checks each moment's
/// claims there. `opsview check` reports the claims that do not hold; the tests run every built-in.
public enum MomentRun {
  /// One moment as the run reached it.
  public struct Stop: Sendable, Equatable {
    /// Index into the moments given.
    public let moment: Int
    /// The last event shown when it was reached (0: before any), and the clock.
    public let seq: Int
    public let time: Double
    /// The claims that do not hold there: index into the moment's claims, and what was found.
    public let failures: [Failure]
  }

  public struct Failure: Sendable, Equatable {
    public let claim: Int
    public let found: String
  }

  /// Every moment reached, in the order reached (one the run never reaches is missing), and every
  /// event of the run.
  public static func play(_ runtime: VirtualRuntime, moments: [Moment]) -> (
    stops: [Stop], events: [Event]
  ) {
    var tracker = MomentTracker(moments)
    var projection = Projection()
    var batch: [Event] = []
    var events: [Event] = []
    var reached: [(moment: Int, projection: Projection)] = []
    runtime.subscribe { batch.append($0) }

    func noteShown() {
      while let i = tracker.showNext() { reached.append((i, projection)) }
    }
    // One engine step's events, one at a time as the board shows them.
    func showBatch() {
      for event in batch {
        projection.apply(event)
        events.append(event)
        if tracker.observe(event) { noteShown() }
      }
      batch.removeAll()
      if tracker.observeStepEnd() { noteShown() }
    }

    showBatch()
    while !runtime.isIdle {
      let next = runtime.nextEventTime
      if let t = tracker.nextTime, next.map({ t < $0 - 1e-9 }) ?? true {
        projection.advanceClock(to: t)
        if tracker.observeClock(t) { noteShown() }
        continue
      }
      runtime.step()
      showBatch()
    }

    var timeline = MomentTimeline()
    timeline.add(events) { projection.operation(named: $0)?.queue }
    let stops = reached.map { stop -> Stop in
      let time = stop.projection.now
      let failures = moments[stop.moment].claims.enumerated().compactMap { i, claim in
        claim.failure(in: stop.projection, run: timeline).map { Failure(claim: i, found: $0) }
      }
      return Stop(
        moment: stop.moment, seq: stop.projection.lastSeq, time: time, failures: failures)
    }
    return (stops, events)
  }
}
