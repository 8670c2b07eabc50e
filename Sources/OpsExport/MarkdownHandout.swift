import OpsEngine
import OpsEvents

/// A handout in GitHub Markdown: the scenario's title and lesson, the Mermaid graph, each queue's
/// limit and suspensions over time, how each cancelled operation ended, the warnings with their
/// teaching sentences, and the trace table with the why lines (`trace --explain`).
public enum MarkdownHandout {
  /// Mermaid's own limits (its `maxEdges` and `maxTextSize` defaults): past them GitHub shows an
  /// error instead of the graph, so the handout says so and points to the SVG.
  static let mermaidMaxEdges = 500
  static let mermaidMaxText = 50_000

  /// `maxTraceRows`: events in the trace table (a handout, not a log: the why lines of a long run
  /// cost time too); a longer run says how many it left out.
  public static let defaultTraceRows = 2_000

  /// Cancelled operations listed by name; a run with more says how many it left out (the graph, the
  /// SVG and the trace have them all).
  static let maxCancellations = 100

  public static func render(_ source: ExportSource, maxTraceRows: Int = defaultTraceRows) -> String
  {
    let p = source.projection
    let title = source.title.isEmpty ? source.id : source.title
    var out = "# \(Escape.markdown(title))\n\n"
    out +=
      "Scenario **\(Escape.markdown(source.id))**: \(p.operations.count) operations on "
      + "\(p.queues.count) queues, from 0 to \(fixed3(source.end))s, \(source.eventCount) events.\n\n"
    if !source.lesson.isEmpty {
      out += "## The lesson\n\n" + lesson(source.lesson) + "\n\n"
    }
    out += "## The dependency graph\n\n"
    let edges = p.graphEdges.count + p.exclusivityGroups.reduce(0) { $0 + $1.members.count }
    let graph = edges <= mermaidMaxEdges ? MermaidExport.flowchart(source) : ""
    if edges <= mermaidMaxEdges && graph.utf8.count <= mermaidMaxText {
      out += "```mermaid\n" + graph + "```\n\n"
    } else {
      out +=
        "The graph has \(p.operations.count) operations and \(edges) edges, more than Mermaid draws "
        + "(at most \(mermaidMaxEdges) edges and \(mermaidMaxText) characters). Export it with "
        + "`--format svg` or `--format dot` instead.\n\n"
    }
    out += "## Queues\n\n" + queues(p) + "\n"
    if p.traits.cancelled > 0 { out += "## Cancellations\n\n" + cancellations(p) + "\n" }
    out += "## Warnings\n\n" + warnings(p) + "\n"
    out += "## Trace\n\n" + trace(source, maxRows: maxTraceRows)
    return out
  }

  /// The author's notes are Markdown already: kept as written, except that HTML cannot get in.
  private static func lesson(_ notes: String) -> String {
    var out = ""
    for scalar in notes.trimmingTrailingWhitespace.unicodeScalars {
      switch scalar {
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Each queue's limit over time and when it was suspended, in the graph's words.
  private static func queues(_ p: Projection) -> String {
    guard !p.queues.isEmpty else { return "None.\n" }
    var out = ""
    for q in p.queues {
      out += "- **\(Escape.markdown(q.name))**: \(Escape.markdown(q.historyText))\n"
    }
    return out
  }

  /// When each cancelled operation was cancelled and what its work did then: the lesson of
  /// cooperative cancellation, in the words of the graph's labels.
  private static func cancellations(_ p: Projection) -> String {
    var out = ""
    var listed = 0
    var total = 0
    for op in p.operations where op.cancelled {
      total += 1
      guard listed < maxCancellations else { continue }
      listed += 1
      out +=
        "- **\(Escape.markdown(op.name))** on \(Escape.markdown(op.queue)): "
        + Escape.markdown(op.statusLine)
        + (op.errors.isEmpty
          ? "" : " (errors: \(Escape.markdown(op.errors.joined(separator: "; "))))")
        + "\n"
    }
    if total > listed {
      out += "- and \(total - listed) more (`--format svg` and `--format dot` show them all)\n"
    }
    return out
  }

  private static func warnings(_ p: Projection) -> String {
    guard !p.warnings.isEmpty else { return "None: the engine raised no warning in this run.\n" }
    let lints = Lints.standard
    var out = ""
    for w in p.warnings {
      var detail = w.message
      var teaching: String?
      if let lint = lints.first(where: { $0.kind == w.kind }), detail.hasSuffix(" " + lint.teaching)
      {
        detail = String(detail.dropLast(lint.teaching.count + 1))
        teaching = lint.teaching
      }
      out +=
        "- **\(Escape.markdown(w.kind))** at \(fixed3(w.time))s, "
        + "\(Escape.markdown(w.subject)): \(Escape.markdown(detail))\n"
      if let teaching { out += "  > \(Escape.markdown(teaching))\n" }
    }
    return out
  }

  private static func trace(_ source: ExportSource, maxRows: Int) -> String {
    var out = "| time (s) | seq | subject | event |\n|---:|---:|---|---|\n"
    var explainer = WaitingExplainer()
    func why(_ lines: [WaitingExplainer.Line]) {
      for l in lines {
        out += "|  | *why* | \(Escape.markdown(l.operation)) | \(Escape.markdown(l.why)) |\n"
      }
    }
    for event in source.events.prefix(maxRows) {
      why(explainer.lines(before: event))
      out +=
        "| \(fixed3(event.time)) | \(event.seq) | \(Escape.markdown(event.kind.subject)) | "
        + "\(Escape.markdown(event.kind.summary)) |\n"
    }
    why(explainer.finish())
    if source.eventCount > maxRows {
      out +=
        "\nThe first \(maxRows) of \(source.eventCount) events are shown; `opsview trace` "
        + "with `--explain` prints them all.\n"
    }
    return out
  }
}

extension String {
  var trimmingTrailingWhitespace: String {
    var s = Substring(self)
    while let last = s.last, last.isWhitespace { s = s.dropLast() }
    return String(s)
  }
}
