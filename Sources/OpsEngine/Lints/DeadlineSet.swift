import HeapModule

/// Deadlines by subject, earliest first, for time-based lints. Removing or replacing a subject's
/// deadline is O(1); stale heap entries are dropped when they reach the top.
public struct DeadlineSet: Sendable {
  private struct Entry: Comparable, Sendable {
    let time: Double
    let subject: String
    let token: Int
    static func < (a: Entry, b: Entry) -> Bool { (a.time, a.token) < (b.time, b.token) }
  }

  private var heap = Heap<Entry>()
  private var current: [String: Int] = [:]
  private var tokens = 0

  public init() {}

  public mutating func set(_ subject: String, at time: Double) {
    tokens += 1
    current[subject] = tokens
    heap.insert(Entry(time: time, subject: subject, token: tokens))
  }

  public mutating func remove(_ subject: String) { current[subject] = nil }

  public func contains(_ subject: String) -> Bool { current[subject] != nil }

  /// No subject has a deadline.
  public var isEmpty: Bool { current.isEmpty }

  /// The earliest live deadline.
  public mutating func earliest() -> Double? {
    while let top = heap.min, current[top.subject] != top.token { heap.removeMin() }
    return heap.min?.time
  }

  /// Removes and returns the subjects whose deadline is at or before `time`.
  public mutating func due(at time: Double) -> [String] {
    var out: [String] = []
    while let top = heap.min, top.time <= time + 1e-9 {
      heap.removeMin()
      if current[top.subject] == top.token {
        current[top.subject] = nil
        out.append(top.subject)
      }
    }
    return out
  }
}
