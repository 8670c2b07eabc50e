import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsExport

/// `--format html`: one page with everything inside, the same bytes every time, the run's events
/// embedded so that their fold is the engine's, and names from a scenario inert wherever they land.
@Suite struct HTMLHandoutTests {
  private struct Embedded: Decodable {
    let id: String
    let title: String
    let events: [Event]
    let log: [LogEntry]
    let causes: [Int]
    let texts: [String]
  }

  /// A log line as embedded: the whole line, or a number the page reads with `texts`.
  private enum LogEntry: Decodable {
    case line(String)
    case text(Int)
    init(from decoder: Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let n = try? c.decode(Int.self) {
        self = .text(n)
      } else {
        self = .line(try c.decode(String.self))
      }
    }
  }

  /// Each event's log line and cause as the page's script reads them (`logLine`, `cause`).
  private func pageWords(_ run: Embedded) -> (log: [String], causes: [String]) {
    let causes = run.causes.map { $0 == 0 ? "" : run.texts[$0 - 1] }
    let log = zip(run.events, run.log).enumerated().map { i, pair -> String in
      let (e, entry) = pair
      switch entry {
      case .line(let line): return line
      case .text(0):
        guard case .state(let o, let from, let to, _) = e.kind else { return "?" }
        return "\(o): \(from.rawValue) → \(to.rawValue): \(causes[i])"
      case .text(let n): return "\(e.kind.operation ?? "?"): \(run.texts[n - 1])"
      }
    }
    return (log, causes)
  }

  /// The page's log lines and causes are the engine's words for every event of every scenario.
  @Test(arguments: Catalog.all.filter { $0.operations.count < 200 }.map(\.id))
  func theLogAndCausesAreTheEnginesWords(_ name: String) throws {
    let run = try embedded(HTMLHandout.render(try exportSource(name))).run
    let (log, causes) = pageWords(run)
    for (i, e) in run.events.enumerated() {
      var summary: [UInt8] = []
      e.kind.appendSummary(to: &summary)
      #expect(log[i] == e.kind.subject + ": " + String(decoding: summary, as: UTF8.self))
      if case .state(_, _, _, let cause) = e.kind { #expect(causes[i] == cause.text) }
    }
  }

  /// The JSON between `<script type="application/json" id="run">` and its `</script>`.
  private func embedded(_ page: String) throws -> (json: String, run: Embedded) {
    let open = #"<script type="application/json" id="run">"#
    let start = try #require(page.range(of: open)).upperBound
    let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
    let json = String(page[start..<end])
    return (json, try JSONDecoder().decode(Embedded.self, from: Data(json.utf8)))
  }

  @Test func thePageIsSelfContained() throws {
    let page = HTMLHandout.render(try exportSource("tour"))
    #expect(!page.contains("http://") && !page.contains("https://"))
    #expect(!page.contains("<link"))
    #expect(!page.contains("src="))
    #expect(!page.contains("@import"))
    // Only references inside the page (the SVG's arrow markers, `url(#arrow)`).
    #expect(!page.replacingOccurrences(of: "url(#", with: "").contains("url("))
    #expect(page.contains("<g data-row=\"0\">"))
    // Two script elements: the data and the replay, both inline.
    #expect(page.components(separatedBy: "<script").count == 3)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
  }

  @Test func theSameRunGivesTheSameBytes() throws {
    let a = HTMLHandout.renderBytes(try exportSource("tour"))
    let b = HTMLHandout.renderBytes(try exportSource("tour"))
    #expect(a == b)
    let viaFormat = try ExportFormat.html.render(try exportSource("tour"))
    #expect(viaFormat == String(decoding: a, as: UTF8.self))
  }

  @Test func theTourPageIsSmall() throws {
    #expect(HTMLHandout.renderBytes(try exportSource("tour")).count < 200_000)
  }

  /// The embedded events, folded up to T by the engine's fold, give the states that a run stopped at
  /// T gives (what `opsview trace --until T` prints), at several times of several scenarios.
  @Test(arguments: ["tour", "cancellation", "mutual-exclusivity", "conditions"])
  func theEmbeddedEventsFoldToTheEnginesStates(_ name: String) throws {
    guard let scenario = Catalog.named(name) else { return }
    let page = HTMLHandout.render(exportSource(scenario))
    let run = try embedded(page).run
    #expect(run.log.count == run.events.count)
    let end = run.events.last?.time ?? 0
    for fraction in [0.0, 0.2, 0.45, 0.7, 1.0] {
      let t = end * fraction
      var folded = Projection()
      for e in run.events where e.time <= t + 1e-9 { folded.apply(e) }
      let stopped = scenario.makeRuntime()
      stopped.run(until: t)
      let expected = stopped.projection
      let states = (0..<folded.operations.count).map {
        (folded.operations[$0].name, folded.operations[$0].state, folded.operations[$0].cancelled)
      }
      let engine = (0..<expected.operations.count).map {
        (
          expected.operations[$0].name, expected.operations[$0].state,
          expected.operations[$0].cancelled
        )
      }
      #expect(states.map(\.0) == engine.map(\.0), "\(name) at \(t)s")
      #expect(states.map(\.1) == engine.map(\.1), "\(name) at \(t)s")
      #expect(states.map(\.2) == engine.map(\.2), "\(name) at \(t)s")
      #expect(folded.queues == expected.queues, "\(name) at \(t)s")
    }
  }

  @Test func hostileNamesAreInert() throws {
    var scenario = hostileScenario()
    let evil = "</script><script>alert(1)</script>\u{2028}\u{2029}'\"<!--\u{1B}[2J\u{0}"
    scenario.title = evil
    scenario.notes = evil
    scenario.operations[0].spec.name = "x" + evil
    scenario.operations[1].spec.dependencies = ["x" + evil]
    scenario.queues[0] = QueueSpec(name: "q" + evil, maxConcurrent: 1)
    scenario.operations[0].queue = "q" + evil
    var source = exportSource(scenario)
    source.teaching = HTMLTeaching(
      stops: [HTMLTeaching.Stop(seq: 2, time: 0, caption: evil, claims: [evil])],
      questions: [
        HTMLTeaching.Question(
          stop: 0, prompt: evil, choices: [evil, "b"], answer: 0, accepted: [0], revealAt: 3,
          explanation: evil, focus: evil)
      ])
    let page = HTMLHandout.render(source)
    // Only the page's own two scripts open or close; no comment opens; no raw U+2028/2029 or
    // control character is left anywhere.
    #expect(page.components(separatedBy: "<script").count == 3)
    #expect(page.components(separatedBy: "</script>").count == 3)
    #expect(!page.contains("<!--"))
    #expect(!page.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
    #expect(
      !page.unicodeScalars.contains {
        $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F
      })
    // The names come back whole from the JSON.
    let run = try embedded(page).run
    #expect(run.title == evil)
    #expect(run.events.contains { $0.kind.operation == "x" + evil })
    #expect(page.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)"))
  }
}
