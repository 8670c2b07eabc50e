import OpsEvents

/// Which moments have been reached, in the order they were reached, and which wait to be shown.
/// A moment is reached once per run; several reached by one event are shown one after another.
/// The board and `MomentRun` (what `opsview check` runs) both drive one, so a moment is reached at
/// the same event in both.
public struct MomentTracker: Sendable {
  public let moments: [Moment]
  /// Indices into `moments`, in the order they were reached.
  public private(set) var reached: [Int] = []
  /// How many of `reached` have been shown.
  public private(set) var shownCount = 0
  private var actionsSeen = 0
  /// Action moments whose command was shown: reached once the rest of its step is (`observeStepEnd`).
  private var armed: [Int] = []

  public init(_ moments: [Moment] = []) { self.moments = moments }

  public var isEmpty: Bool { moments.isEmpty }
  /// The moment on screen (the last one shown).
  public var current: Int? { shownCount > 0 ? reached[shownCount - 1] : nil }
  /// A moment was reached and not shown yet.
  public var hasWaiting: Bool { shownCount < reached.count }

  /// The earliest time moment not reached yet.
  public var nextTime: Double? {
    moments.indices.filter { !reached.contains($0) }.compactMap { i -> Double? in
      if case .time(let t) = moments[i].trigger { return t }
      return nil
    }.min()
  }

  /// Notes the moments this shown event reaches. True when it reached one.
  public mutating func observe(_ event: Event) -> Bool {
    let before = reached.count
    switch event.kind {
    case .state(let operation, _, let to, _):
      reach { $0 == .state(operation: operation, to: to) }
    case .command(_, _, _, .action):
      // Its effect (the cancelled flag, the suspension, the starts a new limit allows) follows in
      // the same engine step: the moment waits for the end of that step.
      let ordinal = actionsSeen
      actionsSeen += 1
      for i in moments.indices
      where !reached.contains(i) && !armed.contains(i)
        && moments[i].trigger == .action(ordinal: ordinal)
      {
        armed.append(i)
      }
    default: break
    }
    return reached.count > before
  }

  /// Every event of the engine step that is being shown has been shown: the action moments armed
  /// by its command are reached. True when it reached one.
  public mutating func observeStepEnd() -> Bool {
    guard !armed.isEmpty else { return false }
    reached.append(contentsOf: armed)
    armed.removeAll()
    return true
  }

  /// Notes the time moments at or before `time`. True when it reached one.
  public mutating func observeClock(_ time: Double) -> Bool {
    let before = reached.count
    reach {
      if case .time(let t) = $0 { return t <= time + 1e-9 }
      return false
    }
    return reached.count > before
  }

  /// The next reached moment to show, marked as shown.
  public mutating func showNext() -> Int? {
    guard hasWaiting else { return nil }
    shownCount += 1
    return reached[shownCount - 1]
  }

  private mutating func reach(_ matches: (Moment.Trigger) -> Bool) {
    for i in moments.indices where !reached.contains(i) && matches(moments[i].trigger) {
      reached.append(i)
    }
  }
}
