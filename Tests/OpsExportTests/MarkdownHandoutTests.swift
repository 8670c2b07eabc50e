import Foundation
import OpsEngine
import OpsScenarios
import Testing

@testable import OpsExport

@Suite struct MarkdownHandoutTests {
  @Test func tourHandoutHasEveryPart() throws {
    let source = try exportSource("tour")
    let text = MarkdownHandout.render(source)
    #expect(text.hasPrefix("# Tour: a photo app's operations, a bit of everything\n"))
    #expect(text.contains("## The lesson\n\nA photo app at launch."))
    #expect(text.contains("```mermaid\nflowchart LR\n"))
    // The warning, then its teaching sentence on a line of its own.
    let teaching = try #require(Lints.standard.first { $0.kind == "ranAfterFailedDependency" })
      .teaching
    #expect(text.contains("- **ranAfterFailedDependency** at 7.000s, purge: purge ran although"))
    #expect(text.contains("  > \(teaching)\n") || text.contains("  > " + Escape.markdown(teaching)))
    // The trace table: every event a row, and the why lines.
    #expect(text.contains("| time (s) | seq | subject | event |"))
    #expect(text.contains("| 0.000 | 1 | network | queue added"))
    #expect(text.contains("|  | *why* | decode | waiting for its dependency download"))
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| time") }
    #expect(rows.count > source.events.count)
  }

  @Test func aGraphTooBigForMermaidIsReplacedByAPointer() throws {
    let text = MarkdownHandout.render(try exportSource("stress"), maxTraceRows: 100)
    #expect(!text.contains("```mermaid"))
    #expect(text.contains("more than Mermaid draws"))
    #expect(text.contains("The first 100 of "))
  }

  @Test func userTextCannotBreakTheTable() throws {
    let text = MarkdownHandout.render(exportSource(hostileScenario()))
    #expect(text.contains("A &lt;b&gt;lesson&lt;/b&gt; with &amp; and `code`."))
    for line in text.split(separator: "\n") where line.hasPrefix("| ") {
      // Four cells: five unescaped pipes.
      let pipes = line.replacing("\\|", with: "").filter { $0 == "|" }.count
      #expect(pipes == 5, "\(line)")
    }
  }
}
