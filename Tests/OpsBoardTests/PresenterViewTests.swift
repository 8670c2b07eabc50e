import OpsEngine
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

@Suite("Presenter: operations and the state machine large, for a projector")
struct PresenterViewTests {
  @Test func thePresenterLayoutFitsAt80x24AndEscLeavesIt() {
    let s = builtInSession("tour")
    s.advance(by: 4.5)
    s.select(operation: "decode")
    s.present()
    #expect(s.view == .presenter)
    let text = screenText(s, 80, 24)
    #expect(text.contains("State machine · decode"))
    #expect(text.contains("why decode"))
    #expect(!text.contains("─ Log"))
    #expect(!text.contains("─ Queues"))
    #expect(text.split(separator: "\n").count == 24)
    assertSnapshot(of: s.render(width: 80, height: 24, ascii: false), as: .styled, named: "80x24")
    press(s, .escape)
    #expect(s.view == .board)
  }
}
