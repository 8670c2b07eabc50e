import OpsEngine
import OpsEvents

/// How the operations table is ordered (`o` cycles, `O` reverses), as htop and tokio-console sort.
enum OperationSort: String, CaseIterable, Sendable {
  case added = "add order"
  case name
  case state
  case queue
  case timeInState = "time in state"
  /// What the queues would start next: ready first, then by priority, then FIFO; started ones last.
  case nextToStart = "next to start"

  /// The table column that shows the sort key, for its ▲/▼ mark.
  var column: OperationColumn? {
    switch self {
    case .added, .nextToStart: nil
    case .name: .name
    case .state: .state
    case .queue: .queue
    case .timeInState: .time
    }
  }

  var next: OperationSort {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }

  /// Orders model indices; ties keep add order, so every order is stable and deterministic.
  func sorted(_ indices: [Int], in model: BoardModel, descending: Bool) -> [Int] {
    let ops = model.operations
    func less(_ a: Int, _ b: Int) -> Bool {
      let (x, y) = (ops[a], ops[b])
      switch self {
      case .added: return a < b
      case .name: return x.name < y.name
      case .state: return x.state < y.state
      case .queue:
        return (model.index(ofQueue: x.queue) ?? 0) < (model.index(ofQueue: y.queue) ?? 0)
      case .timeInState: return x.enteredState > y.enteredState
      case .nextToStart:
        let (rx, ry) = (Self.startRank(x.state), Self.startRank(y.state))
        if rx != ry { return rx < ry }
        return x.priority.value > y.priority.value
      }
    }
    return indices.sorted { a, b in
      if less(a, b) { return !descending }
      if less(b, a) { return descending }
      return a < b
    }
  }

  /// Ready operations start first, then those a step or more away; started ones last.
  private static func startRank(_ s: OperationState) -> Int {
    switch s {
    case .ready: 0
    case .evaluatingConditions: 1
    case .pending: 2
    case .initialized: 3
    case .executing: 4
    case .finishing: 5
    case .finished: 6
    }
  }
}

/// A quick filter by state (`F` cycles through them).
enum StateFilter: String, CaseIterable, Sendable {
  case waiting, running, finished, cancelled

  func matches(_ op: OperationInfo) -> Bool {
    switch self {
    case .waiting: op.state < .executing
    case .running: op.state == .executing || op.state == .finishing
    case .finished: op.state == .finished
    case .cancelled: op.cancelled
    }
  }

  /// The next filter in the cycle, nil after the last (no filter).
  static func after(_ f: StateFilter?) -> StateFilter? {
    guard let f else { return allCases.first }
    let i = allCases.firstIndex(of: f)! + 1
    return i < allCases.count ? allCases[i] : nil
  }
}
