import Foundation
import OpsEngine
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
    var description: String { "| \(moment) | \(at) | … | \(question) | \(answer) |" }
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
        press(s, .character(Character("\(q.answer + 1)")))
        press(s, .enter)
      } else if let m = s.currentMoment, rows.last?.moment != m.index + 1 {
        rows.append(Row(moment: m.index + 1, at: secondsWord(s.model.now), question: "—", answer: "—"))
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
      guard cells.count >= 5, let n = Int(cells[0]) else { continue }
      let answer = cells[4].components(separatedBy: ": ").first ?? cells[4]
      rows.append(
        (Row(moment: n, at: cells[1], question: cells[3], answer: answer), cells[2]))
    }
    return rows
  }

  static let scenarios = Catalog.names.filter { $0 != "stress" }

  @Test(arguments: scenarios)
  func thePlansTableIsWhatTheBoardDoes(_ name: String) throws {
    let doc = try String(
      contentsOf: Self.root.appendingPathComponent("docs/WORKSHOP.md"), encoding: .utf8)
    let scenario = try #require(Catalog.named(name))
    let rows = try #require(Self.documented(name, in: doc), "docs/WORKSHOP.md has no heading for \(name)")
    let played = Self.played(name)
    #expect(rows.map(\.0) == played, "\(name): the board does\n\(played.map(\.description).joined(separator: "\n"))")
    // Each caption excerpt (parts between "…") is the moment's own words.
    for (row, excerpt) in rows where row.moment <= scenario.moments.count {
      let caption = scenario.moments[row.moment - 1].caption
      for part in excerpt.components(separatedBy: "…") {
        let words = part.trimmingCharacters(in: .whitespaces)
        #expect(words.isEmpty || caption.contains(words), "\(name) moment \(row.moment): '\(words)' is not in: \(caption)")
      }
    }
  }
}
