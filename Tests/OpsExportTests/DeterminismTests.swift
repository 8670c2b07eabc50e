import OpsScenarios
import Testing

@testable import OpsExport

@Suite struct DeterminismTests {
  /// Two separate runs of the same scenario give byte-identical exports in every format.
  @Test(arguments: ["tour", "groups-and-produced", "deadlock", "mutual-exclusivity"])
  func sameRunSameBytes(_ name: String) throws {
    for format in ExportFormat.allCases {
      let a = try format.render(try exportSource(name))
      let b = try format.render(try exportSource(name))
      #expect(a == b, "\(format) of \(name) differs between runs")
      #expect(!a.isEmpty)
    }
  }
}
