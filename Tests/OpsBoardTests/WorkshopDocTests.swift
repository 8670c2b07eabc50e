import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// docs/WORKSHOP.md states, for each scenario, when each moment comes, what its caption says, what
/// the quiz asks there and what the engine answers. Those are claims: this plays each scenario as
/// the plan says (quiz mode, `m` from moment to moment, the right answer each time) and compares.
@Suite("docs/WORKSHOP.md agrees with the runs")
struct WorkshopDocTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Row: Equatable, CustomStringConvertible {
    var moment: Int
    var at: String
    var question: String
    var answer: String
    /// The engine's explanation of the answer (the doc quotes a part of it).
    var why = ""
    var description: String { "| \(moment) | \(at) | … | \(question) | \(answer) | \(why) |" }
    static func == (a: Row, b: Row) -> Bool {
      a.moment == b.moment && a.at == b.at && a.question == b.question && a.answer == b.answer
        && (a.why == b.why || a.why.isEmpty || b.why.contains(a.why))
    }
  }

  /// What the plan does: quiz on, `m` at each moment, the right answer, Enter to close it.
  static func played(_ name: String) -> [Row] {
    let scenario = Catalog.named(name)!
    let s = momentSession(scenario, paused: true)
    s.setQuiz(true)
    var rows: [Row] = []
    var guardSteps = 0
    while guardSteps < 2000, !s.isOver || s.currentMoment != nil || s.quizQuestion != nil {
      guardSteps += 1
      if let q = s.quizQuestion {
        let answers = q.accepted.map { q.choices[$0] }.joined(separator: " or ")
        rows[rows.count - 1].question = q.prompt
        rows[rows.count - 1].answer = answers
        rows[rows.count - 1].why = q.explanation
        press(s, .character(Character("\(q.answer + 1)")))
        press(s, .enter)
      } else if let m = s.currentMoment, rows.last?.moment != m.index + 1 {
        rows.append(
          Row(moment: m.index + 1, at: secondsWord(s.model.now), question: "—", answer: "—"))
      } else if s.currentMoment != nil || s.paused {
        press(s, .character("m"))
      } else {
        s.advance(by: 0.25)
      }
    }
    return rows
  }

  static func secondsWord(_ t: Double) -> String {
    var text = secondsText(t, decimals: 2)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text + "s"
  }

  /// The table under `#### \`NAME\``: its rows' moment, time, caption excerpt, question, answer.
  static func documented(_ name: String, in doc: String) -> [(Row, caption: String)]? {
    guard let heading = doc.range(of: "#### `\(name)`") else { return nil }
    var rows: [(Row, String)] = []
    var inTable = false
    for line in doc[heading.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    {
      if line.hasPrefix("#") { break }
      guard line.hasPrefix("|") else {
        if inTable { break } else { continue }
      }
      inTable = true
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 6, let n = Int(cells[0]) else { continue }
      let why =
        cells[5] == "—" ? "" : cells[5].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      rows.append(
        (Row(moment: n, at: cells[1], question: cells[3], answer: cells[4], why: why), cells[2]))
    }
    return rows
  }

  static let scenarios = Catalog.names.filter { $0 != "stress" }

  @Test(arguments: scenarios)
  func thePlansTableIsWhatTheBoardDoes(_ name: String) throws {
    let doc = try String(
      contentsOf: Self.root.appendingPathComponent("docs/WORKSHOP.md"), encoding: .utf8)
    let scenario = try #require(Catalog.named(name))
    let rows = try #require(
      Self.documented(name, in: doc), "docs/WORKSHOP.md has no heading for \(name)")
    let played = Self.played(name)
    #expect(
      rows.map(\.0) == played,
      "\(name): the board does\n\(played.map(\.description).joined(separator: "\n"))")
    // Each caption excerpt (parts between "…") is the moment's own words.
    for (row, excerpt) in rows where row.moment <= scenario.moments.count {
      let caption = scenario.moments[row.moment - 1].caption
      for part in excerpt.components(separatedBy: "…") {
        let words = part.trimmingCharacters(in: .whitespaces)
        #expect(
          words.isEmpty || caption.contains(words),
          "\(name) moment \(row.moment): '\(words)' is not in: \(caption)")
      }
    }
  }

  @Test func theProseFactsHold() throws {
    let doc = try String(
      contentsOf: Self.root.appendingPathComponent("docs/WORKSHOP.md"), encoding: .utf8)
    // "`cancellation` cancels at 1s (`queued`), 2.2s (`polite`, `stubborn`), 3s (`abrupt`) and 4s
    // (`done`)": the scenario's actions.
    let cancellation = try #require(Catalog.named("cancellation"))
    var byTime: [(Double, [String])] = []
    for a in cancellation.actions {
      guard case .cancel(let op) = a.command else { continue }
      if let i = byTime.firstIndex(where: { $0.0 == a.at }) {
        byTime[i].1.append(op)
      } else {
        byTime.append((a.at, [op]))
      }
    }
    let said = byTime.map { t, ops in
      "\(Self.secondsWord(t)) (\(ops.map { "`\($0)`" }.joined(separator: ", ")))"
    }
    let sentence =
      said.dropLast().joined(separator: ", ") + " and " + said.last!
    #expect(
      doc.replacingOccurrences(of: "\n", with: " ").contains("cancels at \(sentence)."),
      "\(sentence)")
    // verify leaves most of the tour unchecked, and none of serial-vs-concurrent.
    let tour = try #require(Catalog.named("tour"))
    #expect(Verification.notCheckable(tour).count * 2 > tour.operations.count)
    let serial = try #require(Catalog.named("serial-vs-concurrent"))
    #expect(Verification.notCheckable(serial).isEmpty && serial.operations.count == 12)
    #expect(
      doc.replacingOccurrences(of: "\n", with: " ").contains(
        "That is most of the `tour`; in `serial-vs-concurrent` all twelve operations are checked."))
  }
}
