import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// Every declared key reaches the format doc, the engine, `opsview code` and `opsview verify`, or
/// declares why not (ScenarioKeys.swift). Each key has a pair of small scenarios that differ in it.
@Suite("A scenario key is declared once and reaches every part")
struct ScenarioKeyTests {
  struct Sample: CustomStringConvertible, Sendable {
    var section: String
    var key: String
    var reach: KeyReach
    var without: String
    var with: String
    var description: String { "\(section).\(key)" }
  }

  /// Two operations on a serial queue; `a` and `b` are the entries' extra keys.
  static func serial(a: String = "", b: String = "", more: String = "", top: String = "") -> String
  {
    """
    \(top)queues:
      - {name: q, maxConcurrent: 1}
    operations:
      - {name: a, work: 2\(a)}
      - {name: b, work: 1\(b)}
    \(more)
    """
  }

  /// The same on a queue without a limit.
  static func open(a: String = "", b: String = "", more: String = "") -> String {
    """
    queues:
      - {name: q}
    operations:
      - {name: a, work: 2\(a)}
      - {name: b, work: 1\(b)}
      - {name: c, work: 1}
    \(more)
    """
  }

  static let topLevel: [TopLevelKey: (String, String)] = [
    .scenario: (serial(), serial(top: "scenario: other\n")),
    .title: (serial(), serial(top: "title: Another title\n")),
    .notes: (serial(), serial(top: "notes: A lesson.\n")),
    .speed: (serial(), serial(top: "speed: 2\n")),
    .queues: (
      "operations:\n  - {name: a, work: 2}\n  - {name: b, work: 1}\n", serial()
    ),
    .operations: (serial(), serial(more: "  - {name: c, work: 1}")),
    .actions: (serial(), serial(more: "actions: [{at: 0.5, cancel: a}]")),
    .moments: (serial(), serial(more: "moments: [{at: 1, caption: Half way.}]")),
  ]

  static let queue: [QueueKey: (String, String)] = [
    .name: (serial(), serial().replacingOccurrences(of: "name: q,", with: "name: r,")),
    .maxConcurrent: (
      open(), open().replacingOccurrences(of: "{name: q}", with: "{name: q, maxConcurrent: 1}")
    ),
    .suspended: (
      open(), open().replacingOccurrences(of: "{name: q}", with: "{name: q, suspended: true}")
    ),
    .qos: (
      open(), open().replacingOccurrences(of: "{name: q}", with: "{name: q, qos: utility}")
    ),
  ]

  static let cancelA = "actions: [{at: 0.5, cancel: a}]"

  static let operation: [OperationKey: (String, String)] = [
    .name: (serial(), serial().replacingOccurrences(of: "name: b,", with: "name: c,")),
    .queue: (
      serial().replacingOccurrences(
        of: "  - {name: q, maxConcurrent: 1}",
        with: "  - {name: q, maxConcurrent: 1}\n  - {name: r}"),
      serial(b: ", queue: r").replacingOccurrences(
        of: "  - {name: q, maxConcurrent: 1}",
        with: "  - {name: q, maxConcurrent: 1}\n  - {name: r}")
    ),
    .work: (
      serial(), serial().replacingOccurrences(of: "name: b, work: 1", with: "name: b, work: 3")
    ),
    .priority: (serial(), serial(b: ", priority: veryHigh")),
    .qos: (
      open().replacingOccurrences(of: "{name: q}", with: "{name: q, maxConcurrent: 1}"),
      open(b: ", qos: userInteractive").replacingOccurrences(
        of: "{name: q}", with: "{name: q, maxConcurrent: 1}")
    ),
    .addedAt: (serial(), serial(b: ", addedAt: 5")),
    .dependencies: (serial(), serial(a: ", dependencies: [b]")),
    .conditions: (serial(), serial(b: ", conditions: [{name: ok, result: failed}]")),
    .cancellation: (serial(more: cancelA), serial(a: ", cancellation: ignored", more: cancelA)),
    .checkEvery: (serial(more: cancelA), serial(a: ", checkEvery: 1", more: cancelA)),
    .fails: (serial(), serial(b: ", fails: boom")),
    .finishes: (serial(), serial(a: ", finishes: never")),
    .produces: (
      serial(more: "  - {name: p, work: 1}"),
      serial(
        a: ", produces: [{at: 0.5, operation: p}]", more: "  - {name: p, work: 1, produced: true}")
    ),
    .children: (
      open(),
      open().replacingOccurrences(of: "{name: c, work: 1}", with: "{name: c, children: [b]}")
    ),
    .blocks: (serial(), serial().replacingOccurrences(of: "work: 1", with: "blocks: [1, 3]")),
    .timeout: (serial(), serial(a: ", timeout: 0.9")),
    .produced: (
      serial(more: "  - {name: p, work: 1}"),
      serial(
        a: ", produces: [{at: 0.5, operation: p}]", more: "  - {name: p, work: 1, produced: true}")
    ),
    .barrier: (open(), open(b: ", barrier: true")),
    .completion: (serial(), serial(b: ", completion: true")),
    .async: (serial(), serial(b: ", async: true")),
  ]

  static let samples: [Sample] =
    TopLevelKey.allCases.map { k in
      Sample(
        section: "Top level", key: k.rawValue, reach: k.reach, without: topLevel[k]?.0 ?? "",
        with: topLevel[k]?.1 ?? "")
    }
    + QueueKey.allCases.map { k in
      Sample(
        section: "Queues", key: k.rawValue, reach: k.reach, without: queue[k]?.0 ?? "",
        with: queue[k]?.1 ?? "")
    }
    + OperationKey.allCases.map { k in
      Sample(
        section: "Operations", key: k.rawValue, reach: k.reach, without: operation[k]?.0 ?? "",
        with: operation[k]?.1 ?? "")
    }

  static func trace(_ s: Scenario) -> [String] {
    let runtime = s.makeRuntime(recording: true)
    runtime.run(until: 100)
    return runtime.events.map { "\(fixed3($0.time)) \($0.kind.subject) \($0.kind.summary)" }
  }

  @Test func theDecodersKnowExactlyTheDeclaredKeys() {
    #expect(ScenarioDecoder.topKeys == TopLevelKey.allCases.map(\.rawValue))
    #expect(ScenarioDecoder.queueKeys == QueueKey.allCases.map(\.rawValue))
    #expect(OperationDecoder.keys == OperationKey.allCases.map(\.rawValue))
  }

  @Test(arguments: samples)
  func theFormatDocDocumentsIt(_ sample: Sample) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let doc = try String(
      contentsOf: root.appending(path: "Scenarios/README.md"), encoding: .utf8)
    let sections = doc.components(separatedBy: "\n## ")
    let section = try #require(sections.first { $0.hasPrefix(sample.section + "\n") })
    #expect(section.contains("\n| `\(sample.key)` |"), "Scenarios/README.md, \(sample.section)")
  }

  @Test(arguments: samples)
  func settingItChangesTheEnginesTraceUnlessDeclaredOtherwise(_ sample: Sample) throws {
    try #require(!sample.with.isEmpty, "no sample scenario for \(sample)")
    let without = try parseScenario(sample.without)
    let with = try parseScenario(sample.with)
    #expect((Self.trace(without) != Self.trace(with)) == (sample.reach.notInEngine == nil))
  }

  @Test(arguments: samples)
  func codeWritesItOrSaysFoundationHasNoEquivalent(_ sample: Sample) throws {
    try #require(!sample.with.isEmpty, "no sample scenario for \(sample)")
    let without = SwiftProgram(try parseScenario(sample.without)).source
    let with = SwiftProgram(try parseScenario(sample.with)).source
    let added = Set(with.split(separator: "\n")).subtracting(without.split(separator: "\n"))
    #expect(!added.isEmpty)
    if sample.reach.noFoundationEquivalent != nil {
      #expect(added.contains { $0.hasPrefix("//") || $0.contains(" // ") }, "\(added)")
    }
  }

  /// What Foundation has is run by verify and agrees with the engine; what it lacks is left out,
  /// with a reason.
  @Test(arguments: samples.filter { $0.section != "Top level" })
  func verifyChecksItOrSaysWhyNot(_ sample: Sample) async throws {
    try #require(!sample.with.isEmpty, "no sample scenario for \(sample)")
    let with = try parseScenario(sample.with)
    let skipped = Verification.notCheckable(with)
    if sample.reach.noFoundationEquivalent != nil {
      #expect(!skipped.isEmpty)
      return
    }
    if !skipped.isEmpty {
      // Verify leaves some operations out for reasons of their own (`finishes: never`).
      #expect(Verification.notCheckable(try parseScenario(sample.without)).isEmpty)
      return
    }
    let v = await verifyAllowingLateness(with)
    #expect(v.agrees, "\(v.report)")
  }
}
