import OpsEngine
import OpsEvents
import OpsExport
import Testing

/// What the exports need from the projection beyond the board's needs: queue settings over time and
/// the commands.
@Suite struct ProjectionHistoryTests {
  @Test func queueChangesAndCommandsAreKept() throws {
    let p = try exportSource("tour").projection
    let network = try #require(p.queue(named: "network"))
    #expect(network.changes.map(\.time) == [0, 6, 10, 12])
    #expect(network.changes.map(\.suspended) == [false, true, false, false])
    #expect(network.changes.map(\.maxConcurrent) == [2, 2, 2, 3])
    #expect(p.commands.map(\.command) == ["cancel", "suspend", "resume", "maxConcurrent"])
    #expect(p.commands.last?.value == "3" && p.commands.last?.source == .action)
  }
}
