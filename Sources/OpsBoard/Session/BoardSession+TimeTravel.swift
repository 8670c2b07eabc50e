import OpsEngine
import OpsEvents

/// Time travel: while paused, the board shows the state after any prefix of the events, rebuilt from
/// the nearest checkpoint plus a bounded fold, so it is exactly what the board showed then.
extension BoardSession {
  /// Events the board is showing (all revealed ones unless it shows the past).
  public var position: Int { past?.position ?? log.count }

  /// Shows the moment after the first `count` events (clamped); the present ends time travel.
  public func seek(toEvent count: Int, time: Double? = nil) {
    revealAll()
    let n = min(max(0, count), log.count)
    if n == log.count && time == nil {
      past = nil
      return
    }
    var model: BoardModel
    let shown = past?.position ?? n
    if shown < n, shown >= history.checkpointSeq(atOrBefore: n) {
      // Forward from the moment shown when no checkpoint is nearer (→ and ] step by step), taken
      // out of `replay` so it is not shared: no copy of a checkpoint's operations. Its clock can be
      // ahead of its last event (a `]` between two events), but the next event is later than that.
      model = past.take()!.model
      model.fold(log[shown..<n])
    } else {
      model = history.model(afterEvents: n, log: log)
    }
    if let t = time { model.advanceClock(to: t) }
    past = PastMoment(position: n, time: model.now, model: model)
  }

  /// The number of events at or before virtual time `t`.
  func eventCount(atOrBefore t: Double) -> Int {
    var lo = 0
    var hi = log.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if log[mid].time <= t + 1e-9 { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  func travel(events delta: Int) {
    guard paused else {
      ui.status = StatusMessage("time travel works while paused: Space pauses", .rejected)
      return
    }
    let target = position + delta
    if target < 0 || target > log.count {
      ui.status = StatusMessage(
        delta < 0 ? "before the first event: nothing earlier" : "at the present: nothing later",
        .rejected)
      return
    }
    seek(toEvent: target)
    ui.status = StatusMessage(travelStatus())
  }

  /// A second back or forward. Below time 0 is the moment before the first event (as `←` reaches),
  /// so `[` never stops short of where `←` can go.
  func travel(seconds delta: Double) {
    guard paused else {
      ui.status = StatusMessage("time travel works while paused: Space pauses", .rejected)
      return
    }
    let now = past?.time ?? liveModel.now
    let target = now + delta
    if delta < 0 && target < 0 {
      guard position > 0 else {
        ui.status = StatusMessage("before the first event: nothing earlier", .rejected)
        return
      }
      seek(toEvent: 0)
    } else if target >= liveModel.now {
      guard past != nil else {
        ui.status = StatusMessage("at the present: nothing later", .rejected)
        return
      }
      past = nil
    } else {
      seek(toEvent: eventCount(atOrBefore: target), time: target)
    }
    ui.status = StatusMessage(travelStatus())
  }

  private func travelStatus() -> String {
    guard let r = past else { return "back at the present: Space plays" }
    let what = r.position > 0 ? log[r.position - 1].line : "before the first event"
    return "past \(r.position)/\(log.count): \(what)"
  }

  func toggleResumePoint() {
    resumeFrom = resumeFrom == .here ? .present : .here
    ui.status = StatusMessage(
      resumeFrom == .here
        ? "Space resumes from the moment shown: the future is played again from there"
        : "Space resumes from the present: time travel is only a look back")
  }

  /// Space while showing the past: live play from the present, or from the moment shown.
  func resumeFromReplay() {
    guard let r = past else { return }
    if resumeFrom == .present {
      past = nil
      setPaused(false)
      ui.status = StatusMessage("back at the present, playing at \(BoardText.speed(speed))")
      return
    }
    rebuild(upTo: r.position)
    setPaused(false)
    ui.status = StatusMessage(
      "playing again from \(clockText(liveModel.now))s: the future is replayed from here")
  }

  /// Restarts the source from the factory, schedules the key commands sent before event `count` at
  /// their times (source key), and reveals events until `count` are shown again. A virtual source is
  /// deterministic, so the same commands at the same times give the same events.
  func rebuild(upTo count: Int) {
    let kept = keyCommands.filter { $0.after < count }
    let ui = self.ui
    restart()
    self.ui = ui
    keyCommands = kept
    for c in kept { source.schedule(c.command, at: c.time) }
    while log.count < count, revealOne() != nil {}
  }
}
