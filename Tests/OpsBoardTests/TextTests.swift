import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardText: what the words and marks say")
struct TextTests {
  @Test func notesShowNoMarkdownBackticks() {
    let s = builtInSession("tour")
    press(s, .character("n"))
    let text = screenText(s, 120, 40)
    #expect(text.contains("decode waits for download"), "\(text)")
    #expect(!text.contains("`"))
  }

  @Test func asciiNeverSpellsArrowsAsCaretV() {
    let s = photoSession()
    s.advance(by: 9)
    for view in ["", "t", "l", "g", "?"] {
      if let c = view.first { press(s, .character(c)) }
      for (w, h) in [(80, 24), (120, 40)] {
        let text = screenText(s, w, h, ascii: true)
        #expect(!text.contains("^v"), "view \(view):\n\(text)")
      }
      press(s, .escape)
    }
  }

  @Test func dependencyMarksSayTheSameInUnicodeAndASCII() {
    let s = photoSession()
    s.advance(by: 2)
    s.select(operation: "download")
    func decodeRow(_ ascii: Bool) -> String {
      String(screenLines(s, ascii: ascii).first { $0.contains("decode") }!)
    }
    #expect(decodeRow(false).contains("0/1"), "\(decodeRow(false))")
    #expect(decodeRow(true).contains("0/1"))
  }

  @Test func queueCountsAddUpToTheOperations() {
    let s = photoSession()
    s.select(queue: "images")
    press(s, .character("C"), .character("y"))
    s.advance(by: 1)
    let images = s.model.queue(named: "images")!
    let row = screenLines(s).first { $0.contains("images ") && $0.contains("/∞") }!
    // Every number after the limit is a share of the queue's operations: they add up to the total.
    let numbers = row.split(separator: " ").dropFirst(4).compactMap { word in
      Int(String(word.drop { !$0.isNumber }))
    }
    #expect(numbers.reduce(0, +) == images.counts.total, "\(row)")
  }
}
