/// An operation executing far longer than expected: typically an async operation that never calls
/// finish, holding its queue slot forever.
public struct NeverFinishesLint: Lint {
  public let kind = "neverFinishes"
  public var eventTypes: Set<String>? { ["state"] }
  public var states: Set<OperationState>? { [.executing] }
  public let summary = "an operation has been executing far longer than expected"
  public let teaching =
    "An asynchronous operation that never calls finish holds its queue slot forever."
  /// Flagged after max(`factor` × expected, `minimum`) seconds of executing.
  public static let factor = 3.0
  public static let minimum = 5.0

  /// By the projection's index of the operation (see `Deadlines`).
  private var deadlines = Deadlines<Int>()

  public init() {}

  public mutating func check(after event: Event, in p: Projection, _ out: inout LintOutput) {
    switch event.kind {
    case .state(let o, _, .executing, _):
      // Fields read in place rather than a copy of the whole record, on every start.
      guard let i = p.index(ofOperation: o) else { return }
      let (kind, work) = p.operations.read(i) { ($0.pointee.kind, $0.pointee.work) }
      guard kind != .group else { return }
      deadlines.set(i, at: event.time + Self.limit(work: work))
    case .state(let o, .executing, _, _):
      if let i = p.index(ofOperation: o) { deadlines.remove(i) }
    default:
      break
    }
  }

  static func limit(for op: OperationInfo) -> Double { limit(work: op.work) }

  static func limit(work: Double?) -> Double { max(factor * max(work ?? 1, 1), minimum) }

  public mutating func nextDeadline() -> Double? { deadlines.earliest() }

  public mutating func check(at time: Double, in p: Projection, _ out: inout LintOutput) {
    for i in deadlines.due(at: time) where i < p.operations.count {
      // An index is never reused: a retired operation reads as finished, and is passed over.
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
