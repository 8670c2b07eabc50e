import OpsEngine
import OpsEvents

/// The operations table's columns, in display order.
enum OperationColumn: CaseIterable {
  case name, queue, priority, qos, state, cancelled, time, progress, deps, conditions, errors

  var header: String {
    switch self {
    case .name: "operation"
    case .queue: "queue"
    case .priority: "priority"
    case .qos: "qos"
    case .state: "state"
    case .cancelled: "✕"
    case .time: "in state"
    case .progress: "progress"
    case .deps: "deps"
    case .conditions: "cond"
    case .errors: "errors"
    }
  }

  var minWidth: Int {
    switch self {
    case .name: 9
    case .queue: 5
    case .priority: 8
    case .qos: 11
    case .state: 12
    case .cancelled: 1
    case .time: 8
    case .progress: 8
    case .deps: 5
    case .conditions: 4
    case .errors: 10
    }
  }
}

/// Which columns the scenario needs: a column whose every cell would be the default says nothing.
struct ColumnNeeds: Equatable {
  var queue = false
  var priority = false
  var qos = false
  var deps = false
  var conditions = false
  var errors = false

  /// From the projection's counts: a scan of every operation here cost 9 ms a frame at 50,000.
  init(_ model: BoardModel) {
    let traits = model.projection.traits
    queue = model.queues.count > 1
    priority = traits.priority > 0
    qos = traits.qos > 0
    deps = traits.dependencies > 0
    conditions = traits.conditions > 0
    errors = traits.errors > 0
  }

  init() {}
}

/// Where each column goes for a table width. Names get their width first (up to their longest),
/// then columns join by importance while they fit, each only when the scenario gives it something
/// to say (priority and qos when it sets them, as in the priorities lesson; errors once there are
/// any); what is left widens the progress bar and the errors.
struct ColumnPlan {
  var columns: [(column: OperationColumn, x: Int, width: Int)]

  init(width: Int, longestName: Int, longestQueue: Int, needs: ColumnNeeds) {
    let available = width - 2  // selection marker and a margin
    var chosen: [OperationColumn: Int] = [:]
    var used = 0
    func add(_ c: OperationColumn, _ w: Int) {
      let cost = w + (chosen.isEmpty ? 0 : 1)
      guard chosen[c] == nil, used + cost <= available else { return }
      chosen[c] = w
      used += cost
    }
    // The name first, as wide as the longest (within reason), but leaving room for the state.
    let nameWidth = max(
      OperationColumn.name.minWidth, min(longestName, 28, available - 13 - 8 - 10))
    add(.name, nameWidth)
    add(.state, OperationColumn.state.minWidth)
    if needs.queue { add(.queue, max(5, min(longestQueue, 20))) }
    add(.cancelled, 1)
    add(.time, OperationColumn.time.minWidth)
    add(.progress, OperationColumn.progress.minWidth)
    if needs.deps { add(.deps, OperationColumn.deps.minWidth) }
    if needs.conditions { add(.conditions, OperationColumn.conditions.minWidth) }
    if needs.errors { add(.errors, OperationColumn.errors.minWidth) }
    if needs.priority { add(.priority, OperationColumn.priority.minWidth) }
    if needs.qos { add(.qos, OperationColumn.qos.minWidth) }
    add(.errors, OperationColumn.errors.minWidth)
    if chosen[.progress] != nil {
      let extra = min(8, available - used - (chosen[.errors] == nil ? 0 : 12))
      if extra > 0 {
        chosen[.progress]! += extra
        used += extra
      }
    }
    if chosen[.errors] != nil { chosen[.errors]! += available - used }
    var x = 2
    columns = []
    for c in OperationColumn.allCases {
      guard let w = chosen[c] else { continue }
      columns.append((c, x, w))
      x += w + 1
    }
  }
}
