import OpsEngine
import OpsEvents
import OpsScenarios
import SnapshotTesting
import Testing

@testable import OpsBoard

/// Every built-in scenario's whole screen at three sizes, at the moment its lesson is most visible:
/// 40% of its run, when queues are busiest. A change in the engine, the scenarios or the board shows here.
@Suite("BoardBuiltInSnapshots: every built-in scenario at 80×24, 120×40 and 200×60")
struct BuiltInScenarioSnapshotTests {
  @Test(arguments: Catalog.all.map(\.id))
  func scenarioScreens(name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let probe = scenario.makeRuntime()
    probe.run(until: 600)
    let moment = ((probe.events.last?.time ?? 0) * 0.4 * 4).rounded() / 4
    let session = BoardSession(
      title: scenario.title, notes: scenario.notes, speed: scenario.speed, paused: true,
      workSettings: [:], makeRuntime: { scenario.makeRuntime() })
    session.advance(by: moment)
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
      let grid = session.render(width: width, height: height, ascii: false)
      assertSnapshot(of: grid, as: .styled, named: "\(name)-\(width)x\(height)")
    }
  }
}
