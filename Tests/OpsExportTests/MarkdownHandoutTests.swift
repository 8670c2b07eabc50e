import Foundation
import OpsEngine
import OpsEvents
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

  /// The same words as the graph's labels, in plain text for a printed handout.
  @Test func cancellationsSayWhenCancelledAndWhenTheWorkStopped() throws {
    let text = MarkdownHandout.render(try exportSource("tour"))
    #expect(
      text.contains(
        "## Cancellations\n\n- **prefetch** on network: cancelled at 4.000s, stopped at 4.500s\n"
          + "- **warmCache** on images: cancelled by its timeout at 7.000s, stopped at 8.000s "
          + "(errors: timed out after 5s)\n"))
    // The graph's node says it too.
    #expect(text.contains("prefetch<br/>cancelled at 4.000s, stopped at 4.500s"))
    #expect(!text.contains("finished, cancelled at"))
    let endings = MarkdownHandout.render(exportSource(HandoutScenarios.endings))
    #expect(endings.contains("- **abrupt** on work: cancelled and stopped at 3.000s\n"))
    #expect(endings.contains("- **waiter** on work: cancelled at 2.000s, never ran\n"))
    let early = MarkdownHandout.render(try exportSource("tour", until: 4.2))
    #expect(
      early.contains("- **prefetch** on network: executing since 0.000s, cancelled at 4.000s\n"))
    let none = MarkdownHandout.render(try exportSource("tour", until: 3))
    #expect(!none.contains("## Cancellations"))
  }

  @Test func queuesSayTheirLimitAndSuspensionsOverTime() throws {
    let text = MarkdownHandout.render(try exportSource("tour"))
    #expect(
      text.contains(
        "## Queues\n\n- **network**: max 2, 3 from 12.000s; suspended from 6.000s to 10.000s\n"
          + "- **images**: max ∞\n- **ui**: max 1\n"))
    let early = MarkdownHandout.render(try exportSource("tour", until: 8))
    #expect(early.contains("- **network**: max 2; suspended from 6.000s\n"))
  }
}
