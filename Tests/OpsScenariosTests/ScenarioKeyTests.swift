import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// Every declared key (top level, queues, operations, conditions, actions, moments) reaches the
/// format doc, the engine, `opsview code` and `opsview verify`, or declares why not
/// (ScenarioKeys.swift). Each key has a pair of small scenarios that differ in it.
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

  /// `a` with these conditions; `p` is declared when a condition's `dependency` names it.
  static func conditions(_ list: String) -> String {
    serial(
      a: ", conditions: \(list)",
      more: list.contains("dependency") ? "  - {name: p, work: 1, produced: true}" : "")
  }

  static let condition: [ConditionKey: (String, String)] = [
    .name: (conditions("[{name: ok}]"), conditions("[{name: online}]")),
    .dependency: (conditions("[{name: ok}]"), conditions("[{name: ok, dependency: p}]")),
    .evaluate: (conditions("[{name: ok}]"), conditions("[{name: ok, evaluate: 1}]")),
    .result: (conditions("[{name: ok}]"), conditions("[{name: ok, result: failed}]")),
    .error: (
      conditions("[{name: ok, result: failed}]"),
      conditions("[{name: ok, result: failed, error: offline}]")
    ),
    .negated: (conditions("[{name: ok}]"), conditions("[{name: ok, negated: true}]")),
    .silent: (
      conditions("[{name: ok, dependency: p}]"),
      conditions("[{name: ok, dependency: p, silent: true}]")
    ),
    .mutuallyExclusive: (conditions("[]"), conditions("[{mutuallyExclusive: Alert}]")),
  ]

  /// `a` checks for cancellation every second, and every action lands half a second from a check:
  /// at a check's instant, which comes first in a real program is a race that `verify` would lose.
  static func acting(_ actions: String = "") -> String {
    serial(a: ", checkEvery: 1", more: actions.isEmpty ? "" : "actions: \(actions)")
  }

  static let action: [ActionKey: (String, String)] = [
    .at: (acting("[{at: 0.5, cancel: a}]"), acting("[{at: 1.5, cancel: a}]")),
    .cancel: (acting(), acting("[{at: 0.5, cancel: a}]")),
    .suspend: (acting(), acting("[{at: 0.5, suspend: q}]")),
    .resume: (
      acting("[{at: 0.5, suspend: q}]"), acting("[{at: 0.5, suspend: q}, {at: 3.5, resume: q}]")
    ),
    .maxConcurrent: (acting(), acting("[{at: 0.5, maxConcurrent: {queue: q, value: 2}}]")),
    .cancelAll: (acting(), acting("[{at: 0.5, cancelAll: q}]")),
  ]

  /// A moment adds the board's pause and caption; the sample without has no moment at all, since a
  /// moment needs a trigger and a caption.
  static let moment: [MomentKey: (String, String)] = [
    .at: (serial(), serial(more: "moments: [{at: 1, caption: Half way.}]")),
    .when: (
      serial(), serial(more: "moments: [{when: {operation: b, to: executing}, caption: b starts.}]")
    ),
    .action: (
      serial(more: cancelA), serial(more: cancelA + "\nmoments: [{action: 0, caption: Cancelled.}]")
    ),
    .caption: (serial(), serial(more: "moments: [{at: 1, caption: Half way.}]")),
    .expect: (
      serial(),
      serial(
        more: "moments: [{at: 1, caption: Half way., expect: [{queue: q, suspended: false}]}]")
    ),
  ]

  static func samples<Key: ScenarioKeySet>(_ section: String, _ pairs: [Key: (String, String)])
    -> [Sample]
  {
    Key.allCases.map { k in
      Sample(
        section: section, key: k.rawValue, reach: k.reach, without: pairs[k]?.0 ?? "",
        with: pairs[k]?.1 ?? "")
    }
  }

  static let samples: [Sample] =
    samples("Top level", topLevel) + samples("Queues", queue) + samples("Operations", operation)
    + samples("Conditions", condition) + samples("Actions", action) + samples("Moments", moment)

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
    // The section runs from its heading (`## ` or `### `) to the next heading of its level or above.
    let heading = try #require(
      ["\n## ", "\n### "].lazy.compactMap { mark in
        doc.range(of: mark + sample.section + "\n").map { (mark, $0) }
      }.first, "Scenarios/README.md has no section \(sample.section)")
    let rest = doc[heading.1.upperBound...]
    let ends = ["\n## ", heading.0 == "\n### " ? "\n### " : nil].compactMap { $0 }
      .compactMap { rest.range(of: $0)?.lowerBound }
    let section = rest[..<(ends.min() ?? rest.endIndex)]
    // A row of its table, or an item naming it (`- `{mutuallyExclusive: CATEGORY}``).
    #expect(
      section.contains("\n| `\(sample.key)` |") || section.contains("\n- `{\(sample.key):"),
      "Scenarios/README.md, \(sample.section)")
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
  /// (Top-level keys and moments leave the run as it is: nothing to verify.)
  @Test(arguments: samples.filter { !["Top level", "Moments"].contains($0.section) })
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
