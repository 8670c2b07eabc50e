import Foundation
import OpsScenarios
import Testing

@testable import OpsExport

/// Checks the Mermaid grammar this exporter relies on, line by line: what GitHub's renderer needs to
/// parse a flowchart (declared ids, balanced subgraphs, no raw syntax characters inside labels).
private func checkFlowchart(_ text: String) {
  let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  #expect(lines.first == "flowchart LR")
  var depth = 0
  var nodes = Set<String>()
  var links = 0
  for line in lines.dropFirst() {
    if let m = line.wholeMatch(of: /subgraph (q[0-9]+)\["([^"]*)"\]/) {
      depth += 1
      checkLabel(String(m.2))
    } else if line == "end" {
      depth -= 1
      #expect(depth >= 0)
    } else if let m = line.wholeMatch(of: /(n[0-9]+)\["([^"]*)"\]/) {
      nodes.insert(String(m.1))
      for part in m.2.split(separator: "<br/>") { checkLabel(String(part)) }
    } else if let m = line.wholeMatch(of: /(lock[0-9]+)\{\{"([^"]*)"\}\}/) {
      nodes.insert(String(m.1))
      for part in m.2.split(separator: "<br/>") { checkLabel(String(part)) }
    } else if let m = line.wholeMatch(
      of: /((?:n|lock)[0-9]+) (-->|-\.->\|([^|]*)\||-\.-(?:\|([^|]*)\|)?) (n[0-9]+)/)
    {
      #expect(nodes.contains(String(m.1)) && nodes.contains(String(m.5)), "\(line)")
      if let label = m.3 ?? m.4 { checkLabel(String(label)) }
      links += 1
    } else if let m = line.wholeMatch(
      of: /linkStyle ([0-9]+) stroke:#[0-9a-f]{6}(,stroke-width:[0-9]+px)?/)
    {
      #expect(Int(m.1)! < links)
    } else if line.wholeMatch(of: /classDef [A-Za-z]+ [a-z:#0-9,-]+/) != nil {
      continue
    } else if let m = line.wholeMatch(of: /class (((?:n|lock)[0-9]+,)*(?:n|lock)[0-9]+) [A-Za-z]+/)
    {
      for id in m.1.split(separator: ",") { #expect(nodes.contains(String(id))) }
    } else {
      Issue.record("not Mermaid this exporter writes: \(line)")
    }
  }
  #expect(depth == 0)
}

/// Inside a label: no quote, bracket, pipe, semicolon, `<`, `>`, backtick or stray `#` (only the
/// `#NNN;` entities Mermaid decodes).
private func checkLabel(_ label: String) {
  let stripped = label.replacing(/#[0-9]+;/, with: "")
  for c in "\"[]{}|;<>`#\n" {
    #expect(!stripped.contains(c), "raw \(c) in label \(label)")
  }
}

@Suite struct MermaidExportTests {
  @Test(arguments: Catalog.all.map(\.id))
  func flowchartsHaveValidStructure(_ name: String) throws {
    checkFlowchart(MermaidExport.flowchart(try exportSource(name)))
  }

  @Test func hostileNamesBecomeEntities() throws {
    let text = MermaidExport.flowchart(exportSource(hostileScenario()))
    checkFlowchart(text)
    #expect(text.contains("a#34;b#60;c#62;#38;d#124;e#59;f#35;g#96;h#92;i#123;j#125;#91;k#93;"))
    #expect(text.contains("o1 --#62; x"))
  }

  @Test func subgraphsPerQueueAndClassesPerState() throws {
    let text = MermaidExport.flowchart(try exportSource("tour", until: 5))
    #expect(text.contains("subgraph q0[\"network (max 2)\"]"))
    #expect(text.contains("classDef executing fill:#66bb6a"))
    #expect(text.contains("classDef pending fill:#cfd8dc"))
    #expect(text.contains("class n1 cancelled") || text.contains("n1 cancelled"))
  }

  @Test func stateDiagramFollowsOneOperation() throws {
    let text = try MermaidExport.stateDiagram(try exportSource("tour"), operation: "prefetch")
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.first == "stateDiagram-v2")
    let transitions = lines.compactMap { $0.firstMatch(of: /^(\S+) --> (\S+?)(:|$)/) }
      .map { (String($0.1), String($0.2)) }
    #expect(transitions.first?.0 == "[*]" && transitions.last?.1 == "[*]")
    // A chain: each transition starts where the previous one ended.
    for (a, b) in zip(transitions, transitions.dropFirst()) { #expect(a.1 == b.0) }
    #expect(transitions.map(\.1).contains("executing"))
    // When it was cancelled and when its work stopped, in the words of every handout.
    #expect(lines.contains("note right of executing: cancelled at 4.000s, stopped at 4.500s"))
    #expect(lines.contains("executing: 4.500s"))
  }

  /// The same words as the other handouts: when it was cancelled, when its work stopped.
  @Test func nodesSayWhenCancelledAndWhenStopped() throws {
    let text = MermaidExport.flowchart(try exportSource("tour"))
    #expect(text.contains("[\"prefetch<br/>cancelled at 4.000s, stopped at 4.500s\"]"))
    #expect(
      text.contains("[\"warmCache<br/>cancelled by its timeout at 7.000s, stopped at 8.000s\"]"))
    #expect(!text.contains("finished, cancelled at"))
    let endings = MermaidExport.flowchart(exportSource(HandoutScenarios.endings))
    #expect(endings.contains("[\"abrupt<br/>cancelled and stopped at 3.000s\"]"))
    #expect(endings.contains("[\"queued<br/>cancelled at 1.000s, never ran, finished at 5.000s\"]"))
    #expect(endings.contains("[\"stubborn<br/>cancelled at 1.000s, ran on to 4.000s\"]"))
    let early = MermaidExport.flowchart(try exportSource("tour", until: 4.2))
    #expect(early.contains("[\"prefetch<br/>executing since 0.000s, cancelled at 4.000s\"]"))
  }

  @Test func subgraphsShowTheLimitAndSuspensionsOverTime() throws {
    let text = MermaidExport.flowchart(try exportSource("tour"))
    // `;` is an entity inside a label.
    #expect(
      text.contains(
        "subgraph q0[\"network (max 2, 3 from 12.000s#59; suspended from 6.000s to 10.000s)\"]"))
    #expect(text.contains("subgraph q1[\"images (max #8734;)\"]"))
    let early = MermaidExport.flowchart(try exportSource("tour", until: 8))
    #expect(early.contains("subgraph q0[\"network (max 2#59; suspended from 6.000s)\"]"))
  }

  @Test func exclusivityIsAHexagonLinkedToItsMembers() throws {
    let text = MermaidExport.flowchart(try exportSource("tour"))
    checkFlowchart(text)
    func id(_ name: String) throws -> String {
      let line = try #require(
        text.split(separator: "\n").first { $0.contains("[\"\(name)<br/>") }, "no node \(name)")
      return String(try #require(line.firstMatch(of: /(n[0-9]+)\[/)).1)
    }
    #expect(text.contains("  lock0{{\"Alert<br/>mutually exclusive\"}}\n"))
    let links = text.split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("  n") || $0.hasPrefix("  lock") }
      .filter { $0.contains(" --> ") || $0.contains(" -.") }
    for name in ["banner", "rateApp"] {
      let link = "  lock0 -.- \(try id(name))"
      let k = try #require(links.firstIndex(of: link), "no link \(link)")
      // Styled in the category's colour: linkStyle counts links in the order they are written.
      #expect(text.contains("  linkStyle \(k) stroke:#ad1457\n"))
    }
    #expect(text.contains("  class lock0 exclusive\n"))
    let early = MermaidExport.flowchart(try exportSource("tour", until: 4))
    checkFlowchart(early)
    #expect(early.contains("lock0 -.-|holds the lock| \(try id("banner"))"))
    #expect(early.contains("lock0 -.-|waits for the lock| \(try id("rateApp"))"))
  }

  @Test func stateDiagramOfAnUnknownOperationIsAnError() throws {
    #expect(throws: ExportError.self) {
      try MermaidExport.stateDiagram(try exportSource("tour"), operation: "nope")
    }
  }
}
