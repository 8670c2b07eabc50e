import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

/// The first event line under the full log's title rule.
private func firstLogLine(_ s: BoardSession) -> Substring { screenLines(s)[2] }

@Suite("BoardLogView: the full log holds still while events arrive")
struct LogViewTests {
  @Test func homeStaysAtTheFirstEventWhilePlaying() {
    let s = photoSession(paused: false)
    s.tick(elapsed: 1)
    press(s, .character("l"), .home)
    let first = firstLogLine(s)
    #expect(first.contains("queue added"), "\(first)")
    for _ in 0..<5 {
      s.tick(elapsed: 1)
      #expect(firstLogLine(s) == first)
    }
  }

  @Test func theNewerCountGrowsWithTheEventsAndEndFollowsAgain() {
    let s = photoSession(paused: false)
    s.tick(elapsed: 1)
    press(s, .character("l"))
    for _ in 0..<3 { press(s, .up) }
    let top = firstLogLine(s)
    let before = s.log.count
    let title = screenLines(s)[1]
    #expect(title.contains("3 newer below"), "\(title)")
    s.tick(elapsed: 3)
    let added = s.log.count - before
    #expect(added > 0)
    #expect(firstLogLine(s) == top)
    #expect(screenLines(s)[1].contains("\(3 + added) newer below"), "\(screenLines(s)[1])")
    press(s, .end)
    s.tick(elapsed: 1)
    #expect(screenLines(s)[1].contains("newest at the bottom"))
    #expect(screenLines(s)[21].contains(s.log.last!.message.prefix(20)))
  }
}
