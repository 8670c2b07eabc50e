/// The "why" lines of an explained trace: after each instant, why each operation that instant touched
/// is waiting, when that changed. It folds the events into its own `Projection` (the one fold) and
/// asks `whyWaiting`. Explanations come once per instant, after everything that happened at that
/// time, so passing states (pending → ready within one instant) are not narrated.
public struct WaitingExplainer: Sendable {
  public struct Line: Sendable, Equatable {
    public let operation: String
    public let why: String
  }

  public private(set) var projection = Projection()
  private var lastWhy: [String: String] = [:]
  private var touched: [String] = []
  private var touchedSet = Set<String>()
  private var instant: Double?

  public init() {}

  /// Lines to show before `event`: the explanations closing the previous instant.
  public mutating func lines(before event: Event) -> [Line] {
    let before = instant.map { $0 < event.time } ?? false ? closeInstant() : []
    instant = event.time
    projection.apply(event)
    touch(affected(by: event))
    return before
  }

  /// The explanations for the last instant, when the run ends.
  public mutating func finish() -> [Line] { closeInstant() }

  private mutating func touch(_ names: [String]) {
    for n in names where touchedSet.insert(n).inserted { touched.append(n) }
  }

  private mutating func closeInstant() -> [Line] {
    var lines: [Line] = []
    for name in touched {
      let why = projection.whyWaiting(name)
      guard why != lastWhy[name] else { continue }
      lastWhy[name] = why
      if let why { lines.append(Line(operation: name, why: why)) }
    }
    touched.removeAll(keepingCapacity: true)
    touchedSet.removeAll(keepingCapacity: true)
    return lines
  }

  /// The operation itself, its dependents, and the unfinished members of the queues involved.
  private func affected(by event: Event) -> [String] {
    var names: [String] = []
    var queues: [String] = []
    if let o = event.kind.operation, let op = projection.operation(named: o) {
      names.append(o)
      names += op.dependents
      queues.append(op.queue)
    }
    if let q = event.kind.queue { queues.append(q) }
    if case .exclusivityReleased = event.kind { queues = projection.queues.map(\.name) }
    for q in queues { names += projection.members(of: q).map(\.name) }
    return names
  }
}
