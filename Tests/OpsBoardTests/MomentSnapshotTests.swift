import OpsEngine
import OpsEvents
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

@Suite("MomentSnapshots: a teaching moment's caption over the board")
struct MomentSnapshotTests {
  @Test(arguments: [(80, 24), (120, 40)])
  func tourFirstMoment(width: Int, height: Int) throws {
    let scenario = try #require(Catalog.named("tour"))
    let s = momentSession(scenario)
    s.advance(by: 100)
    #expect(s.currentMoment?.index == 0)
    let grid = s.render(width: width, height: height, ascii: false)
    assertSnapshot(of: grid, as: .styled, named: "\(width)x\(height)")
  }
}
