import OpsEngine
import OpsEvents
import Testing

@testable import OpsBoard

@Suite("BoardOverlayKeys: while help is open, keys belong to it")
struct OverlayKeyTests {
  @Test func engineKeysDoNothingWhileHelpIsOpen() {
    let s = photoSession()
    s.advance(by: 1)
    press(s, .character("?"), .character("s"))
    #expect(s.helpVisible, "s closed help")
    #expect(s.model.queue(named: "network")?.suspended == false, "s suspended a queue under help")
    #expect(!s.log.contains { $0.isCommand })
    #expect(s.status?.text.contains("help") == true)
    press(s, .character("+"), .character("c"), .character("C"), .character("r"), .tab)
    #expect(s.helpVisible)
    #expect(!s.log.contains { $0.isCommand })
    #expect(s.selectedQueue == "network")
  }

  @Test func endScrollsHelpInsteadOfSelectingTheLastOperation() {
    let s = photoSession()
    #expect(s.selectedOperation == "download")
    press(s, .character("?"), .end)
    #expect(s.helpVisible)
    #expect(s.selectedOperation == "download", "End selected an operation under help")
    let end = screenText(s)
    press(s, .home)
    #expect(screenText(s) != end, "End did not scroll the help")
    press(s, .character("j"), .character("G"), .character("g"), .character("l"))
    #expect(s.helpVisible && s.view == .board && s.selectedOperation == "download")
    press(s, .escape)
    #expect(!s.helpVisible)
  }

  @Test func helpPausesTheClockAndClosingResumesIt() {
    let s = photoSession(paused: false)
    s.tick(elapsed: 1)
    press(s, .character("?"))
    #expect(s.paused)
    let now = s.model.now
    s.tick(elapsed: 1)
    #expect(s.model.now == now)
    #expect(screenText(s, 120, 40).contains("clock paused"))
    press(s, .character("?"))
    #expect(!s.helpVisible && !s.paused)
    // Paused before help: still paused after it.
    press(s, .character(" "), .character("?"), .escape)
    #expect(s.paused)
  }

  @Test func quitIsNotTakenByHelpButClosesIt() {
    let s = photoSession()
    press(s, .character("?"))
    #expect(s.handle(.character("q")))
    #expect(!s.helpVisible)
    #expect(!s.handle(.character("q")))
  }
}
