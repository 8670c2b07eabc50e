import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardKeyTargets: a key acts on a target on screen, and says which")
struct KeyTargetTests {
  @Test func queueKeysAreRefusedWhereNoQueueIsShown() {
    let s = photoSession()
    press(s, .character("g"))
    #expect(s.view == .graph)
    for key in ["+", "-", "s", "C"] {
      press(s, .character(Character(key)))
      #expect(s.model.queue(named: "network")?.maxConcurrent == 2, "\(key) changed the limit")
      #expect(s.model.queue(named: "network")?.suspended == false)
      #expect(s.status?.kind == .rejected)
      #expect(s.status?.text.contains("queue") == true, "\(s.status?.text ?? "")")
    }
    #expect(!s.log.contains { $0.isCommand })
    // On the board the queue is shown and named.
    press(s, .escape, .character("+"))
    #expect(s.model.queue(named: "network")?.maxConcurrent == 3)
    #expect(s.status?.text.hasPrefix("network") == true)
  }

  @Test func operationKeysAreRefusedWhereTheSelectionIsNotShown() {
    let s = photoSession()
    press(s, .character("l"), .character("c"))
    #expect(s.model.operation(named: "download")?.cancelled == false)
    #expect(s.status?.kind == .rejected)
    press(s, .escape, .character("n"), .character("c"))
    #expect(s.model.operation(named: "download")?.cancelled == false)
    // The graph shows the selection: c cancels it and names it.
    press(s, .escape, .character("g"), .character("c"))
    #expect(s.model.operation(named: "download")?.cancelled == true)
    #expect(s.status?.text.contains("download") == true)
  }
}
