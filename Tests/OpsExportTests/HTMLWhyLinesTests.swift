import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsExport

/// The page's why lines are `Projection.whyWaiting`'s at every position of the slider, between the
/// instants too (where `trace --explain`, which the browser test compares with, says nothing): the
/// page's own script runs in Node (`Tests/Browser/page_in_node.js`) and its line for every waiting
/// operation after every event is compared with the engine's fold of the same events.
@Suite struct HTMLWhyLinesTests {
  static let shim = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Browser/page_in_node.js").path

  static let node: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/node" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// The text between `open` and the next `</script>`.
  static func element(_ page: String, after open: String) throws -> String {
    let start = try #require(page.range(of: open)).upperBound
    let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
    return String(page[start..<end])
  }

  @Test(
    .enabled(if: node != nil, "needs node"),
    arguments: Catalog.all.filter { $0.operations.count < 200 }.map(\.id))
  func everyWhyLineAtEveryEventIsTheEngines(_ name: String) throws {
    try Self.compare(try exportSource(name), name)
  }

  /// Operations started after a suspension asking again for their locks (X10): they hold slots
  /// outside the ready line, and end in a deadlock that a raised limit breaks.
  @Test(.enabled(if: node != nil, "needs node"), arguments: [nil, 2.0], [false, true])
  func reclaimedLocksAreExplainedAsTheEngineDoes(raiseAt: Double?, cancelling: Bool) throws {
    let raise =
      (raiseAt.map { "\n  - {at: \($0), maxConcurrent: {queue: q, value: 3}}" } ?? "")
      + (cancelling ? "\n  - {at: 1.5, cancel: a}" : "")
    let scenario = try ScenarioLoader.parse(
      """
      queues: [{name: q, maxConcurrent: 0}]
      operations:
        - {name: a, queue: q, work: 0, conditions: [{mutuallyExclusive: x}]}
        - {name: b, queue: q, work: 0, conditions: [{mutuallyExclusive: y}]}
        - {name: c, queue: q, work: 0, conditions: [{mutuallyExclusive: x}, {mutuallyExclusive: y}]}
      actions:
        - {at: 0, suspend: q}
        - {at: 1, resume: q}
        - {at: 1, maxConcurrent: {queue: q, value: 2}}\(raise)
      """, file: "reclaim.yaml", defaultID: "reclaim")
    try Self.compare(exportSource(scenario), "reclaim")
  }

  static func compare(_ source: ExportSource, _ name: String) throws {
    let page = HTMLHandout.render(source)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-why-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let run = dir.appendingPathComponent("run.json")
    let script = dir.appendingPathComponent("page.js")
    let out = dir.appendingPathComponent("out.json")
    try Self.element(page, after: #"<script type="application/json" id="run">"#)
      .write(to: run, atomically: true, encoding: .utf8)
    try Self.element(page, after: "<script>\n").write(to: script, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.node))
    process.arguments = [Self.shim, run.path, script.path, out.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let shown = try JSONDecoder().decode([[String: [String]]].self, from: Data(contentsOf: out))
    #expect(shown.count == source.events.count + 1)
    var projection = Projection()
    var compared = 0
    var wrong: [String] = []
    for (k, lines) in shown.enumerated() {
      if k > 0 { projection.apply(source.events[k - 1]) }
      for op in projection.operations {
        #expect(lines[op.name]?.first == op.state.rawValue, "\(name) after \(k) events: \(op.name)")
        guard let why = projection.whyWaiting(op.name) else { continue }
        compared += 1
        let page = lines[op.name]?.last
        if page != why && wrong.count < 5 {
          wrong.append("after \(k) events, \(op.name): page \(page ?? "nothing"), engine \(why)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(name): \(wrong)")
    #expect(compared > 0)
  }
}
