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
    } else if let m = line.wholeMatch(of: /(n[0-9]+) (-->|-\.->\|([^|]*)\|) (n[0-9]+)/) {
      #expect(nodes.contains(String(m.1)) && nodes.contains(String(m.4)), "\(line)")
      if let label = m.3 { checkLabel(String(label)) }
      links += 1
    } else if let m = line.wholeMatch(
      of: /linkStyle ([0-9]+) stroke:#[0-9a-f]{6}(,stroke-width:[0-9]+px)?/)
    {
      #expect(Int(m.1)! < links)
    } else if line.wholeMatch(of: /classDef [A-Za-z]+ [a-z:#0-9,-]+/) != nil {
      continue
    } else if let m = line.wholeMatch(of: /class ((n[0-9]+,)*n[0-9]+) [A-Za-z]+/) {
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
    #expect(lines.contains("note right of executing: cancelled (action) at 4.000s"))
    #expect(lines.contains("executing: 4.500s"))
  }

  @Test func stateDiagramOfAnUnknownOperationIsAnError() throws {
    #expect(throws: ExportError.self) {
      try MermaidExport.stateDiagram(try exportSource("tour"), operation: "nope")
    }
  }
}
