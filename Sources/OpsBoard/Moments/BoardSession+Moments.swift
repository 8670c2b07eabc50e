import OpsEngine
import OpsEvents

extension BoardAction {
  /// Closes a moment's caption and plays on to the next moment.
  public static let nextMoment = BoardAction("nextMoment")
  /// Space or Enter while a caption is shown: the same as `nextMoment`.
  static let continueMoment = BoardAction("continueMoment")
}

/// Teaching moments: the clock stops exactly at a moment (between two happenings of the engine, so
/// a key pressed there acts at that moment), the caption is shown, and `m` plays on to the next one.
extension BoardSession {
  /// The moment whose caption is on screen, if the clock is held at one.
  public var currentMoment: (index: Int, of: Int, moment: Moment)? {
    guard ui.view == .moment, let i = moments.current else { return nil }
    return (i, moments.moments.count, moments.moments[i])
  }

  /// Where the caption on screen returns to: the presenter layout when it was drawn over it.
  var momentReturnView: BoardView {
    ui.views.moment.overPresenter ? .presenter : .board
  }

  /// The moments reached so far in this run, in the order reached (indices into the scenario's list).
  public var reachedMoments: [Int] { moments.reached }

  /// Called after each shown event. True when a moment now holds the clock (the caller stops
  /// revealing events).
  func momentReached(by event: Event) -> Bool {
    guard !moments.isEmpty, moments.observe(event) else { return false }
    return presentWaitingMoment()
  }

  /// Called once every event of an engine step is shown. True when an action moment now holds the
  /// clock.
  func momentReachedAtStepEnd() -> Bool {
    guard !moments.isEmpty, moments.observeStepEnd() else { return false }
    return presentWaitingMoment()
  }

  /// Shows the next reached moment unless one is already on screen: pauses and opens its caption.
  @discardableResult
  func presentWaitingMoment() -> Bool {
    guard currentMoment == nil || !paused, let i = moments.showNext() else { return false }
    setPausedQuietly()
    // In the presenter layout (or at a moment shown over it) the next caption goes over it too.
    let overPresenter = isPresenting
    var view = MomentView()
    view.overPresenter = overPresenter
    view.index = i
    view.count = moments.moments.count
    view.caption = moments.moments[i].caption
    view.claims = moments.moments[i].claims
    if !view.claims.isEmpty { view.timeline = momentTimeline() }
    view.time = liveModel.now
    ui.views.moment = view
    // The operation the moment is about is the one the board explains.
    if case .state(let operation, _) = moments.moments[i].trigger { select(operation: operation) }
    ui.view = .moment
    ui.returnView = momentReturnView
    let key = keyMap.keyLabel(.nextMoment, in: .moment) ?? "m"
    ui.status = StatusMessage(
      "moment \(i + 1) of \(moments.moments.count) at \(clockText(liveModel.now))s: "
        + "\(key) plays on to the next one")
    return true
  }

  /// The run's transitions as far as the board can know them: those shown, and those a look-ahead
  /// copy of the present will publish (a recording or a live program has no future to look at).
  func momentTimeline() -> MomentTimeline {
    var timeline = MomentTimeline()
    let queueOf = { (op: String) in self.liveModel.operation(named: op)?.queue }
    timeline.add(log.lazy.map(\.event), queueOf: queueOf)
    if source is VirtualScenarioSource,
      let future = Lookahead.future(of: makeSource, commands: keyCommands, present: log)
    {
      timeline.add(future, queueOf: queueOf)
    }
    return timeline
  }

  /// A key changed the run at a moment: its claims are judged again against the new future.
  func refreshMomentClaims() {
    guard !ui.views.moment.claims.isEmpty, moments.current == ui.views.moment.index else { return }
    ui.views.moment.timeline = momentTimeline()
  }

  /// The `m` key: shows a moment that is waiting, else closes the caption and plays on.
  func continueToNextMoment() {
    if moments.isEmpty {
      ui.status = StatusMessage(
        "this scenario has no teaching moments: Space plays", .rejected)
      return
    }
    if past != nil {
      ui.status = StatusMessage(
        "showing the past: Space resumes first, then m plays on to the next moment", .rejected)
      return
    }
    if ui.view == .moment { back() }
    // A view opened from the caption no longer returns to it.
    ui.trail.removeAll { $0 == .moment }
    if moments.hasWaiting {
      presentWaitingMoment()
      return
    }
    let left = moments.moments.count - moments.reached.count
    ui.status = StatusMessage(
      left == 0
        ? "no more moments: playing to the end"
        : "playing on to the next moment (\(left) left)")
    setPaused(false)
  }

  /// `advance(by:)` when the scenario has moments: one happening at a time, stopping at a moment.
  /// With a budget (a frame of playing, see `play`), at most that many events are folded and the
  /// time not reached is owed to the next frame.
  func advanceThroughMoments(by seconds: Double, folding budget: Int = .max) {
    let shownBefore = moments.reached.count
    func stopped() -> Bool { currentMoment != nil && moments.reached.count > shownBefore }
    var left = budget - reveal(atMost: budget)
    if stopped() { return }
    let sliced = budget < .max
    let target = (sliced ? max(playTarget ?? runtime.now, runtime.now) : runtime.now) + seconds
    if sliced { playTarget = target }
    while !runtime.isIdle {
      // The budget is spent: the rest is folded, and the clock moved on, on the next frames.
      guard left > 0, unrevealedCount == 0 else { return }
      let next = runtime.nextEventTime
      if let t = moments.nextTime, t <= target + 1e-9, next.map({ t < $0 - 1e-9 }) ?? true {
        runtime.advance(by: max(0, t - runtime.now))
        liveModel.advanceClock(to: t)
        if moments.observeClock(t), presentWaitingMoment() { return }
        continue
      }
      guard let n = next, n <= target + 1e-9 else { break }
      runtime.step()
      left -= reveal(atMost: left)
      if stopped() { return }
    }
    if runtime.isIdle {
      playTarget = nil
      if ui.status?.kind == .info { ui.status = nil }
    } else {
      runtime.advance(by: max(0, target - runtime.now))
      liveModel.advanceClock(to: runtime.now)
    }
  }

  /// Pauses without the status message a key would give.
  private func setPausedQuietly() { setPaused(true) }
}
