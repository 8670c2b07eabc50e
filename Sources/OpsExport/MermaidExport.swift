import OpsEngine
import OpsEvents

/// Mermaid text for GitHub Markdown (mermaid.js.org/syntax/flowchart.html, stateDiagram.html): a
/// `flowchart LR` of the dependency graph (a subgraph per queue titled with its limit and suspensions
/// over time, a classDef per state, a hexagon per mutual-exclusivity category linked to the
/// operations that share it) and a `stateDiagram-v2` of one operation's path. Node labels say how
/// each operation ended in the words of every handout (`statusLine`). Ids are generated (`n0`, `q0`,
/// `lock0`: never starting with o or x, which Mermaid reads as edge ends); names appear only as
/// escaped labels.
public enum MermaidExport {
  public static func flowchart(_ source: ExportSource) -> String {
    let p = source.projection
    var out = "flowchart LR\n"
    let (byQueue, orphans) = p.operationsByQueue()
    for (q, queue) in p.queues.enumerated() {
      out += "  subgraph q\(q)[\"\(Escape.mermaid(queue.historyLabel))\"]\n"
      for i in byQueue[q] { out += "    " + node(p.operations[i]) }
      out += "  end\n"
    }
    for i in orphans { out += "  " + node(p.operations[i]) }
    let groups = p.exclusivityGroups
    for (k, g) in groups.enumerated() {
      out += "  lock\(k){{\"\(Escape.mermaid(g.category))<br/>mutually exclusive\"}}\n"
    }
    var styled: [(index: Int, style: String)] = []
    let edges = p.graphEdges
    for (i, e) in edges.enumerated() {
      let a = "n\(e.from)"
      let b = "n\(e.to)"
      switch e.kind {
      case .dependency:
        out += "  \(a) --> \(b)\n"
        if e.inCycle { styled.append((i, "stroke:\(Palette.cancel),stroke-width:2px")) }
      case .produces:
        out += "  \(a) -.->|produces| \(b)\n"
        styled.append((i, "stroke:\(Palette.produced)"))
      case .child:
        out += "  \(a) -.->|child| \(b)\n"
        styled.append((i, "stroke:\(Palette.child)"))
      case .condition:
        out += "  \(a) -.->|condition \(Escape.mermaid(e.label ?? ""))| \(b)\n"
        styled.append((i, "stroke:\(Palette.condition)"))
      }
    }
    var link = edges.count
    for (k, g) in groups.enumerated() {
      for m in g.members {
        let label = ExclusivityGroup.edgeLabel(m.status).map { "|\(Escape.mermaid($0))|" } ?? ""
        out += "  lock\(k) -.-\(label) n\(m.index)\n"
        styled.append((link, "stroke:\(Palette.exclusive)"))
        link += 1
      }
    }
    for s in styled { out += "  linkStyle \(s.index) \(s.style)\n" }
    var members = [Outcome: [Int]]()
    var flagged: [Int] = []
    for op in p.operations {
      members[Outcome(op), default: []].append(op.index)
      if op.cancelled && op.state != .finished { flagged.append(op.index) }
    }
    for o in Outcome.allCases {
      guard let ids = members[o] else { continue }
      out += "  classDef \(o.rawValue) fill:\(o.fill),stroke:\(o.stroke),color:#000\n"
      out += "  class \(ids.map { "n\($0)" }.joined(separator: ",")) \(o.rawValue)\n"
    }
    if !flagged.isEmpty {
      out += "  classDef cancelledFlag stroke:\(Palette.cancel),stroke-width:3px\n"
      out += "  class \(flagged.map { "n\($0)" }.joined(separator: ",")) cancelledFlag\n"
    }
    if !groups.isEmpty {
      out += "  classDef exclusive fill:\(Palette.exclusiveFill),stroke:\(Palette.exclusive),"
      out += "color:\(Palette.exclusive)\n"
      out += "  class \(groups.indices.map { "lock\($0)" }.joined(separator: ",")) exclusive\n"
    }
    return out
  }

  private static func node(_ op: OperationInfo) -> String {
    "n\(op.index)[\"\(Escape.mermaid(op.name))<br/>\(Escape.mermaid(op.statusLine))\"]\n"
  }

  /// One operation's path through the state machine: each transition labelled with its time and
  /// cause, each state with the time spent in it, a note where it was cancelled saying when, and
  /// when its work stopped (the words of every handout).
  public static func stateDiagram(_ source: ExportSource, operation name: String) throws -> String {
    let p = source.projection
    guard let op = p.operation(named: name) else {
      throw ExportError.unknownOperation(name, known: p.operations.map(\.name))
    }
    var out = "stateDiagram-v2\n"
    out += "  %% \(Escape.mermaid(op.name)) on \(Escape.mermaid(op.queue))\n"
    var previous = "[*]"
    for (i, visit) in op.history.enumerated() {
      let id = visit.state.rawValue
      let label = fixed3(visit.time) + "s" + (visit.cause.map { " " + $0.text } ?? "")
      out += "  \(previous) --> \(id): \(Escape.mermaid(label))\n"
      if visit.state != .finished {
        let last = i + 1 == op.history.count
        let stop = last ? source.end : op.history[i + 1].time
        let spent =
          "\(fixed3(stop - visit.time))s" + (last ? ", still here at \(fixed3(source.end))s" : "")
        out += "  \(id): \(Escape.mermaid(spent))\n"
      }
      previous = id
    }
    if op.state == .finished { out += "  finished --> [*]\n" }
    if let t = op.cancelledAt {
      let during = op.history.last { $0.time <= t }?.state ?? op.state
      let text =
        (op.state == .finished ? op.ending : op.cancelledWhen)
        + (op.errors.isEmpty ? "" : ": " + op.errors.joined(separator: "; "))
      out += "  note right of \(during.rawValue): \(Escape.mermaid(text))\n"
    } else if !op.errors.isEmpty, op.state == .finished {
      out +=
        "  note right of finished: \(Escape.mermaid("errors: " + op.errors.joined(separator: "; ")))\n"
    }
    return out
  }
}

/// An export that cannot be made from this source.
public enum ExportError: Error, CustomStringConvertible, Equatable {
  case unknownOperation(String, known: [String])

  public var description: String {
    switch self {
    case .unknownOperation(let name, let known):
      let shown = known.prefix(12).joined(separator: ", ") + (known.count > 12 ? ", …" : "")
      return "no operation named '\(name)' in this run"
        + (known.isEmpty ? "" : " (operations: \(shown))")
    }
  }
}
