import Foundation
import OpsScenarios
import Testing

@testable import OpsExport

@Suite struct DotExportTests {
  /// The real Graphviz `dot` must accept every built-in scenario's graph.
  @Test(arguments: Catalog.all.map(\.id))
  func rendersWithGraphviz(_ name: String) throws {
    let dot = try tool("dot")
    let text = DotExport.render(try exportSource(name))
    let r = try run(dot, ["-Tsvg"], input: text)
    #expect(r.status == 0, "dot failed for \(name): \(r.err)")
    #expect(String(decoding: r.out, as: UTF8.self).contains("<svg"))
    #expect(r.err.isEmpty, "dot warned for \(name): \(r.err)")
  }

  @Test func clustersNodesEdgesAndLegend() throws {
    let text = DotExport.render(try exportSource("groups-and-produced"))
    #expect(text.hasPrefix("digraph opsview {"))
    #expect(text.contains("subgraph cluster_q0 {"))
    #expect(text.contains("label=\"importAlbum.children (max ∞)\""))
    #expect(text.contains("style=dashed, color=\"#6a1b9a\", label=\"produces\""))
    #expect(text.contains("arrowhead=odot") && text.contains("label=\"child\""))
    #expect(text.contains("subgraph cluster_legend {"))
  }

  @Test func coloursFollowTheStateAtUntil() throws {
    let early = DotExport.render(try exportSource("tour", until: 2))
    #expect(early.contains("label=\"download\\nexecuting since 0.000s\", fillcolor=\"#66bb6a\""))
    let end = DotExport.render(try exportSource("tour"))
    #expect(end.contains("label=\"download\\nfinished at 4.000s\", fillcolor=\"#c8e6c9\""))
  }

  @Test func hostileNamesAreQuotedAndSurviveGraphviz() throws {
    let dot = try tool("dot")
    let text = DotExport.render(exportSource(hostileScenario()))
    #expect(text.contains(#"label="a\"b<c>&amp;d|e;f#g`h\\i{j}[k]"#))
    let r = try run(dot, ["-Tsvg"], input: text)
    #expect(r.status == 0, "\(r.err)")
    let svg = String(decoding: r.out, as: UTF8.self)
    // Graphviz writes the label back as XML text: the original name, escaped once.
    #expect(svg.contains("a&quot;b&lt;c&gt;&amp;d|e;f#g`h\\i{j}[k]"))
  }
}
