import OpsEngine

/// Which moments have been reached, in the order they were reached, and which wait to be shown.
/// A moment is reached once per run; several reached by one event are shown one after another.
struct MomentTracker {
  let moments: [Moment]
  /// Indices into `moments`, in the order they were reached.
  private(set) var reached: [Int] = []
  /// How many of `reached` have been shown.
  private(set) var shownCount = 0
  private var actionsSeen = 0

  init(_ moments: [Moment] = []) { self.moments = moments }

  var isEmpty: Bool { moments.isEmpty }
  /// The moment on screen (the last one shown).
  var current: Int? { shownCount > 0 ? reached[shownCount - 1] : nil }
  /// A moment was reached and not shown yet.
  var hasWaiting: Bool { shownCount < reached.count }

  /// The earliest time moment not reached yet.
  var nextTime: Double? {
    moments.indices.filter { !reached.contains($0) }.compactMap { i -> Double? in
      if case .time(let t) = moments[i].trigger { return t }
      return nil
    }.min()
  }

  /// Notes the moments this shown event reaches. True when it reached one.
  mutating func observe(_ event: Event) -> Bool {
    let before = reached.count
    switch event.kind {
    case .state(let operation, _, let to, _):
      reach { $0 == .state(operation: operation, to: to) }
    case .command(_, _, _, .action):
      let ordinal = actionsSeen
      actionsSeen += 1
      reach { $0 == .action(ordinal: ordinal) }
    default: break
    }
    return reached.count > before
  }

  /// Notes the time moments at or before `time`. True when it reached one.
  mutating func observeClock(_ time: Double) -> Bool {
    let before = reached.count
    reach {
      if case .time(let t) = $0 { return t <= time + 1e-9 }
      return false
    }
    return reached.count > before
  }

  /// The next reached moment to show, marked as shown.
  mutating func showNext() -> Int? {
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
