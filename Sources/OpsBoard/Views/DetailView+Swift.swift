import OpsEngine
import OpsEvents

extension BoardRenderer {
  /// The detail view's "In Swift" section: each command that touched the operation or its queue,
  /// with the line of Foundation Swift it stands for.
  func swiftCommandLines(_ op: OperationInfo) -> [Pieces] {
    let heading = Style.title
    let commands = fullLog.filter { entry in
      entry.swiftLine != nil && (entry.subject == op.name || entry.subject == op.queue)
    }
    var lines: [Pieces] = [[("In Swift (\(commands.count) commands on it or its queue)", heading)]]
    if commands.isEmpty { lines.append([("  none", .dim)]) }
    for entry in commands.suffix(50) {
      lines.append([
        (clockText(entry.time).leftPadded(8) + "  ", .dim),
        (entry.swiftLine ?? "", .bold),
      ])
    }
    return lines
  }
}
