import Foundation
import Testing

/// The workshop rehearsed as an instructor runs it: the real binary in tmux at 80×24, every scenario
/// of docs/WORKSHOP.md's plan in the presenter layout with the quiz and the high-contrast theme, `m`
/// from moment to moment. At each moment the caption is on screen with its claims holding, the
/// question the plan names is asked, the plan's answer is scored right, and the layout is still
/// the presenter's.
@Suite(
  .serialized,
  .enabled(
    if: TmuxSession.isAvailable, "tmux is not installed: skipping the end-to-end board tests"))
struct RehearsalEndToEndTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// One row of a scenario's table in docs/WORKSHOP.md: the moment, its question ("—": none), the
  /// answers the engine makes true.
  struct Step {
    var moment: Int
    var question: String?
    var answers: [String]
  }

  static func plan() throws -> [(name: String, steps: [Step])] {
    let doc = try String(
      contentsOf: root.appendingPathComponent("docs/WORKSHOP.md"), encoding: .utf8)
    var plan: [(String, [Step])] = []
    for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#### `"), let name = line.split(separator: "`").dropFirst().first {
        plan.append((String(name), []))
        continue
      }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard !plan.isEmpty, cells.count >= 6, let n = Int(cells[0]) else { continue }
      let question = cells[3] == "—" ? nil : cells[3]
      plan[plan.count - 1].1.append(
        Step(
          moment: n, question: question, answers: cells[4].components(separatedBy: " or ")))
    }
    return plan
  }

  @Test func thePlanRunsAsWrittenAt80x24InThePresenterWithTheQuiz() throws {
    let binary = try #require(OpsviewBinary.path, "run `swift build` first")
    let plan = try Self.plan()
    #expect(plan.count >= 12, "every scenario of the plan")
    for (name, steps) in plan {
      let session = try TmuxSession(
        width: 80, height: 24,
        command: TmuxSession.wrapped(
          binary,
          [
            "play", name, "--present", "--quiz", "--theme", "high-contrast", "--paused",
            "--speed", "50",
          ]))
      try #require(
        session.settled { $0.contains("quiz 0/0") } != nil, "\(name):\n\(session.capture())")
      var right = 0
      for step in steps {
        let title = "Moment \(step.moment) of \(steps.count)"
        // The first moment may be on screen as the board starts; otherwise m plays on to it.
        if session.settled()?.contains(title) != true { try session.send("m") }
        let screen = try #require(
          session.settled { $0.contains(title) }, "\(name): \(title)\n\(session.capture())")
        // The caption's claims hold on screen, and the presenter's layout is kept.
        #expect(screen.contains("✓ "), "\(name) \(title): no claim shown\n\(screen)")
        #expect(!screen.contains("✗ "), "\(name) \(title): a claim fails\n\(screen)")
        #expect(screen.contains("· initialized"), "\(name) \(title): not the presenter\n\(screen)")
        #expect(!screen.contains("─ Log"), "\(name) \(title): not the presenter\n\(screen)")
        guard let question = step.question else { continue }
        try session.send("m")
        let asking = try #require(
          session.settled { $0.contains("Predict ·") },
          "\(name) \(title): no question\n\(session.capture())")
        #expect(
          asking.replacingOccurrences(of: "\n", with: " ").contains(String(question.prefix(30))),
          "\(name) \(title): asked something else\n\(asking)")
        // The plan's answer is one of the choices on screen: pick it by its number.
        let choice = asking.split(separator: "\n").compactMap { line -> Int? in
          let text = line.replacingOccurrences(of: "▸", with: " ").replacingOccurrences(
            of: "│", with: " ")
          let parts = text.split(separator: " ", maxSplits: 1)
          guard parts.count == 2, let n = Int(parts[0]) else { return nil }
          let rest = parts[1].trimmingCharacters(in: .whitespaces)
          return step.answers.contains { rest.hasPrefix(String($0.prefix(40))) } ? n : nil
        }.first
        let n = try #require(choice, "\(name) \(title): \(step.answers) not offered\n\(asking)")
        try session.send("\(n)")
        right += 1
        #expect(
          session.waitFor("quiz \(right)/\(right)"),
          "\(name) \(title): not scored right\n\(session.capture())")
        let revealed = session.capture()
        #expect(revealed.contains("· initialized"), "\(name): the reveal left the presenter")
        try session.send("Enter")
        // The reveal closes onto the board, or onto the next moment when it reached one.
        _ = session.settled { !$0.contains("Revealed ·") && !$0.contains("Predict ·") }
      }
      try session.send("q")
      #expect(session.waitFor("exit: 0"), "\(name):\n\(session.capture())")
    }
  }
}
