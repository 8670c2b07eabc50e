import DequeModule
import HeapModule
import OpsEvents

/// An operation executing far longer than expected: typically an async operation that never calls
/// finish, holding its queue slot forever.
public struct NeverFinishesLint: Lint {
  public var kind: String { "neverFinishes" }
  public var eventTypes: Set<EventType>? { [.state] }
  public var states: Set<OperationState>? { [.executing] }
  public var summary: String { "an operation has been executing far longer than expected" }
  public var teaching: String {
    "An asynchronous operation that never calls finish holds its queue slot forever."
  }
  /// Flagged after max(`factor` × expected, `minimum`) seconds of executing.
  public static let factor = 3.0
  public static let minimum = 5.0

  /// A deadline by the projection's index of the operation. Nothing is removed when an operation
  /// stops executing: an operation executes once and an index is never reused, so a deadline whose
  /// operation no longer executes is dropped when it comes first (`nextDeadline`) or due. Keeping a
  /// table of the current ones hashed each operation three times (~700 instructions an operation of
  /// the live runtime's delivery).
  private struct Deadline: Comparable {
    let time: Double
    let index: Int
    static func < (a: Self, b: Self) -> Bool { (a.time, a.index) < (b.time, b.index) }
  }
  private var deadlines = Heap<Deadline>()
  /// Deadlines `minimum` after their start (most: no expected work, or little), in the order they
  /// were set, which is the order of their times: a queue instead of the heap, whose insertion and
  /// removal were most of this lint's cost on the live runtime's delivery.
  private var atMinimum = Deque<Deadline>()

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    guard case .state(let o, _, .executing, _) = event.kind else { return }
    // Fields read in place rather than a copy of the whole record, on every start.
    guard let i = p.index(ofOperation: o) else { return }
    let (kind, work) = p.operations.read(i) { ($0.pointee.kind, $0.pointee.work) }
    guard kind != .group else { return }
    let limit = Self.limit(work: work)
    let deadline = Deadline(time: event.time + limit, index: i)
    if limit == Self.minimum && (atMinimum.last.map { $0.time <= deadline.time } ?? true) {
      atMinimum.append(deadline)
    } else {
      deadlines.insert(deadline)
    }
  }

  static func limit(for op: OperationInfo) -> Double { limit(work: op.work) }

  static func limit(work: Double?) -> Double { max(factor * max(work ?? 1, 1), minimum) }

  public mutating func nextDeadline(in p: Projection) -> Double? {
    while let first = deadlines.min, !Self.executes(first.index, in: p) { deadlines.removeMin() }
    while let first = atMinimum.first, !Self.executes(first.index, in: p) {
      atMinimum.removeFirst()
    }
    switch (deadlines.min?.time, atMinimum.first?.time) {
    case (let a?, let b?): return min(a, b)
    case (let a, let b): return a ?? b
    }
  }

  /// A retired operation reads as finished.
  private static func executes(_ i: Int, in p: Projection) -> Bool {
    i < p.operations.count && p.operations.read(i) { $0.pointee.state } == .executing
  }

  public mutating func check(at time: Double, in p: Projection, _ out: inout LintOutput) {
    var due: [Deadline] = []
    while let first = deadlines.min, first.time <= time + 1e-9 { due.append(deadlines.removeMin()) }
    while let first = atMinimum.first, first.time <= time + 1e-9 {
      due.append(atMinimum.removeFirst())
    }
    // In the heap's order, whichever held them: the warnings' order does not depend on where.
    for deadline in due.sorted() {
      let i = deadline.index
      guard i < p.operations.count else { continue }
      let (o, state, started, work) = p.operations.read(i) {
        ($0.pointee.name, $0.pointee.state, $0.pointee.startedAt, $0.pointee.work)
      }
      guard state == .executing, let s = started else { continue }
      out.raise(
        o,
        "\(o) has been executing for \(fixed3(time - s))s, far longer than expected "
          + "(\(fixed3(max(work ?? 1, 1)))s).")
    }
  }
}
