import OpsEngine
import OpsEvents

/// The formats of `opsview export`. Each is a pure function of the source: the same run always
/// gives byte-identical output.
public enum ExportFormat: String, CaseIterable, Sendable {
  case perfetto, dot, mermaid, svg, markdown, html

  /// `operation`: for Mermaid, draw that operation's path as a state diagram instead of the graph.
  public func render(_ source: ExportSource, operation: String? = nil) throws -> String {
    switch self {
    case .perfetto: PerfettoExport.render(source)
    case .dot: DotExport.render(source)
    case .mermaid:
      try operation.map { try MermaidExport.stateDiagram(source, operation: $0) }
        ?? MermaidExport.flowchart(source)
    case .svg: SVGTimeline.render(source)
    case .markdown: MarkdownHandout.render(source)
    case .html: HTMLHandout.render(source)
    }
  }

  /// The same output as UTF-8 bytes: the big formats are built as bytes, and a String of tens of
  /// megabytes would be validated and copied twice on its way to the file.
  public func renderBytes(_ source: ExportSource, operation: String? = nil) throws -> [UInt8] {
    switch self {
    case .perfetto: PerfettoExport.renderBytes(source)
    case .svg: SVGTimeline.renderBytes(source)
    case .html: HTMLHandout.renderBytes(source)
    default: Array(try render(source, operation: operation).utf8)
    }
  }

  public var summary: String {
    switch self {
    case .perfetto: "Chrome/Perfetto Trace Event JSON, for ui.perfetto.dev and chrome://tracing"
    case .dot: "Graphviz digraph of the dependency graph"
    case .mermaid: "Mermaid flowchart; with --operation, a stateDiagram-v2 of that operation"
    case .svg: "SVG timeline picture"
    case .markdown: "Markdown handout: lesson, graph, warnings, trace with why lines"
    case .html:
      "interactive HTML handout: one self-contained page that replays the run, with moments and quiz"
    }
  }
}
