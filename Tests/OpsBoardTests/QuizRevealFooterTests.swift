import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

@Suite("The quiz's reveal says what its keys do")
struct QuizRevealFooterTests {
  @Test func theRevealsFooterSaysEnterCloses() throws {
    let s = momentSession(try #require(Catalog.named("tour")))
    s.setQuiz(true)
    s.advance(by: 100)
    press(s, .character("m"))
    #expect(s.quizQuestion != nil)
    let asking = try #require(screenLines(s).last)
    #expect(asking.contains("Enter answer"), "\(asking)")
    // `.` only says "answer first" while a question waits: the footer does not offer it.
    #expect(!asking.contains(". step"), "\(asking)")
    press(s, .enter)
    #expect(s.quizReveal != nil)
    let footer = try #require(screenLines(s).last)
    #expect(!footer.contains("choose"), "\(footer)")
    #expect(!footer.contains("answer"), "\(footer)")
    #expect(footer.contains("Enter/Esc close"), "\(footer)")
    #expect(footer.contains(". next question"), "\(footer)")
  }
}
