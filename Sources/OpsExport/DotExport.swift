import OpsEngine
import OpsEvents

/// A Graphviz digraph of the dependency graph (graphviz.org/doc/info/lang.html): one cluster per
/// queue titled with its limit and suspensions over time, nodes filled by how each operation ended
/// (or its state at `--until`) and labelled with when (a cancelled one: when it was cancelled and
/// when its work stopped), solid dependency edges, dashed edges for produced operations and group
/// children, dotted ones for a condition's produced dependency, a dashed hexagon per
/// mutual-exclusivity category joined to the operations that share it, and a legend. Ids are
/// generated (`n0`, `q0`, `lock0`); names appear only as quoted, escaped labels.
public enum DotExport {
  public static func render(_ source: ExportSource) -> String {
    let p = source.projection
    let edges = p.graphEdges
    var out = "digraph opsview {\n"
    out += "  graph [rankdir=LR, newrank=true, fontname=\"Helvetica\", fontsize=12, labelloc=t, "
    out += "nodesep=0.2, ranksep=0.4, label=\(Escape.dot(caption(source)))];\n"
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
    out += "  edge [fontname=\"Helvetica\", fontsize=8, color=\"\(Palette.dependency)\"];\n"
    let (byQueue, orphans) = p.operationsByQueue()
    for (q, queue) in p.queues.enumerated() {
      out += "  subgraph cluster_q\(q) {\n"
      out += "    label=\(Escape.dot(queue.historyLabel)); style=rounded; color=\"#90a4ae\";\n"
      for i in byQueue[q] { out += "    " + node(p.operations[i]) }
      out += "  }\n"
    }
    for i in orphans { out += "  " + node(p.operations[i]) }
    for e in edges { out += "  " + edge(e) }
    let groups = p.exclusivityGroups
    for (k, g) in groups.enumerated() { out += exclusivity(g, id: "lock\(k)") }
    out += legend(p, edges, exclusivity: !groups.isEmpty)
    out += "}\n"
    return out
  }

  static func caption(_ source: ExportSource) -> String {
    let title = source.title.isEmpty ? source.id : source.title
    return title + " (at \(fixed3(source.end))s)"
  }

  /// The category as a node, undirected dashed lines to its members (undirected: no one waits for
  /// a member as such, they take turns).
  private static func exclusivity(_ g: ExclusivityGroup, id: String) -> String {
    var out = "  \(id) [label=\(Escape.dot(g.category + "\nmutually exclusive")), shape=hexagon, "
    out += "style=\"dashed,filled\", fillcolor=\"\(Palette.exclusiveFill)\", "
    out += "color=\"\(Palette.exclusive)\", fontcolor=\"\(Palette.exclusive)\", fontsize=9];\n"
    for m in g.members {
      out += "  \(id) -> n\(m.index) [dir=none, style=dashed, color=\"\(Palette.exclusive)\""
      if let label = ExclusivityGroup.edgeLabel(m.status) {
        out += ", fontcolor=\"\(Palette.exclusive)\", label=\(Escape.dot(label))"
      }
      out += "];\n"
    }
    return out
  }

  private static func node(_ op: OperationInfo) -> String {
    let o = Outcome(op)
    var attributes = "label=\(Escape.dot(op.name + "\n" + op.statusLine)), fillcolor=\"\(o.fill)\""
    if op.cancelled && op.state != .finished {
      attributes += ", color=\"\(Palette.cancel)\", penwidth=2.5"
    } else {
      attributes += ", color=\"\(o.stroke)\""
    }
    return "n\(op.index) [\(attributes)];\n"
  }

  private static func edge(_ e: GraphEdge) -> String {
    let label: String? =
      switch e.kind {
      case .dependency: nil
      case .produces: "produces"
      case .child: "child"
      case .condition: "condition " + (e.label ?? "")
      }
    return edge(e.kind, "n\(e.from) -> n\(e.to)", label: label, inCycle: e.inCycle)
  }

  private static func edge(
    _ kind: GraphEdge.Kind, _ ends: String, label: String?, inCycle: Bool = false
  ) -> String {
    var attributes: [String] = []
    switch kind {
    case .dependency:
      if inCycle { attributes += ["color=\"\(Palette.cancel)\"", "penwidth=2"] }
    case .produces:
      attributes += ["style=dashed", "color=\"\(Palette.produced)\""]
    case .child:
      attributes += ["style=dashed", "arrowhead=odot", "color=\"\(Palette.child)\""]
    case .condition:
      attributes += ["style=dotted", "color=\"\(Palette.condition)\""]
    }
    if let label { attributes.append("label=\(Escape.dot(label))") }
    return ends + (attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]")
      + ";\n"
  }

  /// The fills and edge kinds this graph uses, in a box of their own.
  private static func legend(_ p: Projection, _ edges: [GraphEdge], exclusivity: Bool) -> String {
    var present = Set<Outcome>()
    for op in p.operations { present.insert(Outcome(op)) }
    var out = "  subgraph cluster_legend {\n"
    out += "    label=\"legend\"; style=rounded; color=\"#b0bec5\"; fontsize=10;\n"
    out += "    node [fontsize=8, height=0.2];\n"
    for o in Outcome.allCases where present.contains(o) {
      out +=
        "    legend_\(o.rawValue) [label=\"\(o.label)\", fillcolor=\"\(o.fill)\", color=\"\(o.stroke)\"];\n"
    }
    if p.operations.contains(where: { $0.cancelled && $0.state != .finished }) {
      out += "    legend_cancelledFlag [label=\"cancelled, not finished\", fillcolor=\"#ffffff\", "
      out += "color=\"\(Palette.cancel)\", penwidth=2.5];\n"
    }
    if exclusivity {
      out += "    legend_lock [label=\"mutually exclusive:\\none at a time\", shape=hexagon, "
      out += "style=\"dashed,filled\", fillcolor=\"\(Palette.exclusiveFill)\", "
      out += "color=\"\(Palette.exclusive)\", fontcolor=\"\(Palette.exclusive)\"];\n"
    }
    let kinds = GraphEdge.Kind.allCases.filter { k in edges.contains { $0.kind == k } }
    for (i, k) in kinds.enumerated() {
      out += "    legend_e\(i)a [shape=point, width=0.05, label=\"\"];\n"
      out += "    legend_e\(i)b [shape=point, width=0.05, label=\"\"];\n"
      let name =
        switch k {
        case .dependency: "dependency: finishes before"
        case .produces: "produces"
        case .child: "group child"
        case .condition: "condition waits for"
        }
      out += "    " + edge(k, "legend_e\(i)a -> legend_e\(i)b", label: name)
    }
    out += "  }\n"
    return out
  }
}
