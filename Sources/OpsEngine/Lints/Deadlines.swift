import HeapModule
import OpsEvents

/// Deadlines by subject (names), for lints.
public typealias DeadlineSet = Deadlines<String>

/// Deadlines by subject, earliest first, for time-based lints. Removing or replacing a subject's
/// deadline is O(1); stale heap entries are dropped when they reach the top. A lint about every
/// operation keys it by the projection's index of the operation: an integer hashes in a fraction of
/// a name's time, and the heap moves its entries without retaining anything.
public struct Deadlines<Subject: Hashable & Sendable>: Sendable {
  private struct Entry: Comparable, Sendable {
    let time: Double
    let subject: Subject
    let token: Int
    static func < (a: Entry, b: Entry) -> Bool { (a.time, a.token) < (b.time, b.token) }
    static func == (a: Entry, b: Entry) -> Bool { a.time == b.time && a.token == b.token }
  }

  private var heap = Heap<Entry>()
  private var current: [Subject: Int] = [:]
  private var tokens = 0

  public init() {}

  public mutating func set(_ subject: Subject, at time: Double) {
    tokens += 1
    current[subject] = tokens
    heap.insert(Entry(time: time, subject: subject, token: tokens))
  }

  /// Nothing to hash when no subject has a deadline (the usual case of most lints).
  public mutating func remove(_ subject: Subject) {
    if !current.isEmpty { current[subject] = nil }
  }

  public func contains(_ subject: Subject) -> Bool { current[subject] != nil }

  /// No subject has a deadline.
  public var isEmpty: Bool { current.isEmpty }

  /// The earliest live deadline.
  public mutating func earliest() -> Double? {
    while let top = heap.min, current[top.subject] != top.token { heap.removeMin() }
    return heap.min?.time
  }

  /// Removes and returns the subjects whose deadline is at or before `time`.
  public mutating func due(at time: Double) -> [Subject] {
    var out: [Subject] = []
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
