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

  /// The node of `name`: its id and its label as written.
  private func node(_ name: String, in text: String) throws -> (id: String, label: String) {
    let line = try #require(
      text.split(separator: "\n").first { $0.contains("[label=\"\(name)\\n") }, "no node \(name)")
    let m = try #require(line.firstMatch(of: /(n[0-9]+) \[label="([^"]*)"/))
    return (String(m.1), String(m.2))
  }

  /// The rehearsal's complaint: prefetch was cancelled at 4 s and stopped at 4.5 s, and the label
  /// said only "finished, cancelled at 4.500s".
  @Test func aCancelledNodeSaysWhenItWasCancelledAndWhenItStopped() throws {
    let text = DotExport.render(try exportSource("tour"))
    #expect(
      try node("prefetch", in: text).label == "prefetch\\ncancelled at 4.000s, stopped at 4.500s")
    #expect(
      try node("warmCache", in: text).label
        == "warmCache\\ncancelled by its timeout at 7.000s, stopped at 8.000s")
    #expect(try node("download", in: text).label == "download\\nfinished at 4.000s")
    #expect(!text.contains("finished, cancelled at"))
  }

  @Test func everyWayOfEndingCancelledHasItsWords() throws {
    let text = DotExport.render(exportSource(HandoutScenarios.endings))
    let expected = [
      "polite": "cancelled at 2.200s, stopped at 2.500s",
      "stubborn": "cancelled at 1.000s, ran on to 4.000s",
      // Cancelled and finished at the same instant: said once.
      "abrupt": "cancelled and stopped at 3.000s",
      "timed": "cancelled by its timeout at 2.000s, stopped at 2.250s",
      "queued": "cancelled at 1.000s, never ran, finished at 5.000s",
      "waiter": "cancelled at 2.000s, never ran",
      "slow": "finished at 5.000s",
    ]
    for (name, words) in expected {
      #expect(try node(name, in: text).label == name + "\\n" + words)
    }
  }

  /// `--until`: the states as they were then; a cancel that has not been noticed yet says so.
  @Test func untilShowsTheCancelBeforeTheWorkStopped() throws {
    let text = DotExport.render(try exportSource("tour", until: 4.2))
    #expect(
      try node("prefetch", in: text).label
        == "prefetch\\nexecuting since 0.000s, cancelled at 4.000s")
    #expect(text.contains("label=\"network (max 2)\";"))
    #expect(!text.contains("stopped at"))
    let later = DotExport.render(try exportSource("tour", until: 8))
    #expect(later.contains("label=\"network (max 2; suspended from 6.000s)\";"))
    #expect(
      try node("prefetch", in: later).label == "prefetch\\ncancelled at 4.000s, stopped at 4.500s")
  }

  /// The rehearsal's complaint: "network (max 3)", though the limit was 2 until 12 s of 17.
  @Test func aQueueClusterShowsItsLimitAndSuspensionsOverTime() throws {
    let text = DotExport.render(try exportSource("tour"))
    #expect(
      text.contains(
        "label=\"network (max 2, 3 from 12.000s; suspended from 6.000s to 10.000s)\"; style=rounded"
      ))
    #expect(text.contains("label=\"images (max ∞)\"; style=rounded"))
    #expect(text.contains("label=\"ui (max 1)\"; style=rounded"))
    let queues = DotExport.render(exportSource(HandoutScenarios.queueHistory))
    // A limit set again to the same value is no change; a queue suspended at the end says from when.
    #expect(
      queues.contains(
        "label=\"q (max 1, 3 from 1.000s, ∞ from 2.000s; suspended from 3.000s to 4.000s and from 5.000s)\""
      ))
    #expect(queues.contains("label=\"r (max 2; suspended from 0.000s to 2.000s)\""))
  }

  /// The rehearsal's complaint: nothing said banner and rateApp take turns (category Alert).
  @Test func exclusivityIsACategoryNodeJoinedToItsMembers() throws {
    let text = DotExport.render(try exportSource("tour"))
    let banner = try node("banner", in: text).id
    let rateApp = try node("rateApp", in: text).id
    let lock = try #require(
      text.firstMatch(of: /\n  (lock[0-9]+) \[label="Alert\\nmutually exclusive", shape=hexagon/))
    let id = String(lock.1)
    let joined = text.split(separator: "\n").filter { $0.hasPrefix("  \(id) -> ") }
    #expect(joined.count == 2)
    for member in [banner, rateApp] {
      #expect(
        joined.contains { $0.hasPrefix("  \(id) -> \(member) [dir=none, style=dashed") },
        "\(member) is not joined to the Alert node")
    }
    #expect(text.contains("legend_lock [label=\"mutually exclusive:\\none at a time\""))
    // At 4 s banner holds the lock and rateApp waits for it.
    let early = DotExport.render(try exportSource("tour", until: 4))
    #expect(
      early.contains("label=\"holds the lock\"") && early.contains("label=\"waits for the lock\""))
    // Before the second member is added there is nothing to be exclusive with.
    let before = DotExport.render(try exportSource("tour", until: 2))
    #expect(!before.contains("mutually exclusive"))
    // Two categories, one of three operations.
    let three = DotExport.render(try exportSource("mutual-exclusivity"))
    #expect(three.split(separator: "\n").filter { $0.hasPrefix("  lock0 -> ") }.count == 3)
    #expect(three.split(separator: "\n").filter { $0.hasPrefix("  lock1 -> ") }.count == 2)
  }
}
