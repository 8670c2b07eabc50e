import OpsEngine

/// Extra lines for the text trace with `--explain`: why each affected operation is waiting whenever that
/// changes, read from the projection. Explanations are given once per instant, after everything that
/// happened at that time, so passing states (pending → ready within one instant) are not narrated.
/// (Warnings are events of their own and print as trace lines.)
struct TraceAnnotator {
  let text: TextTrace
  let explain: Bool
  private var projection = Projection()
  private var lastWhy: [String: String] = [:]
  private var touched: [String] = []
  private var touchedSet = Set<String>()
  private var instant: Double?

  init(text: TextTrace, explain: Bool) {
    self.text = text
    self.explain = explain
  }

  /// Lines to print before `event`: explanations closing the previous instant.
  mutating func annotate(_ event: Event) -> [String] {
    let before = instant.map { $0 < event.time } ?? false ? closeInstant() : []
    instant = event.time
    projection.apply(event)
    if explain { touch(affected(by: event)) }
    return before
  }

  /// Explanations for the last instant, when the run ends.
  mutating func finish() -> [String] { closeInstant() }

  private mutating func touch(_ names: [String]) {
    for n in names where touchedSet.insert(n).inserted { touched.append(n) }
  }

  private mutating func closeInstant() -> [String] {
    var lines: [String] = []
    for name in touched {
      let why = projection.whyWaiting(name)
      guard why != lastWhy[name] else { continue }
      lastWhy[name] = why
      if let why { lines.append(text.note("why", name, why)) }
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

extension TextTrace {
  /// An annotation line aligned under the event columns.
  func note(_ label: String, _ subject: String, _ message: String) -> String {
    String(repeating: " ", count: 9 - min(label.count, 9)) + label + "  "
      + String(repeating: " ", count: 6) + "  "
      + subject.padding(toLength: max(subject.count, subjectWidth), withPad: " ", startingAt: 0)
      + "  " + message
  }
}
