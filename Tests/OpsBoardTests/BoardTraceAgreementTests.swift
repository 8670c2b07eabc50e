import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsBoard

/// The board and the trace tell one story: the warnings the board shows (kind, subject, time) are
/// exactly those of the text trace and of the JSONL trace, and every event's log line has the same
/// text on the board as in the trace, whatever the playback speed.
@Suite struct BoardTraceAgreementTests {
  /// Plays a scenario on the board in frames of 1/30 s at `speed` until it is over.
  func playOnBoard(_ s: Scenario, speed: Double) -> BoardSession {
    let session = BoardSession(title: s.title, notes: "", speed: speed) { s.makeRuntime() }
    var frames = 0
    while !session.isOver && frames < 200_000 {
      session.tick(elapsed: 1.0 / 30)
      frames += 1
    }
    return session
  }

  struct Trace {
    var warnings: [String] = []
    var jsonWarnings: [String] = []
    var lines: [String] = []
  }

  /// What `opsview trace` prints for the scenario, in both formats, computed as the command does.
  func trace(_ s: Scenario) throws -> Trace {
    let rt = s.makeRuntime()
    rt.run()
    var t = Trace()
    for e in rt.events {
      t.lines.append(e.kind.subject + "  " + e.kind.summary)
      if case .warning(let kind, let subject, _) = e.kind {
        t.warnings.append("\(fixed3(e.time)) \(kind) \(subject)")
      }
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(e.jsonLine.utf8)) as? [String: Any])
      if object["type"] as? String == "warning" {
        let time = (object["time"] as? NSNumber)?.doubleValue ?? -1
        t.jsonWarnings.append(
          "\(fixed3(time)) \(object["kind"] as? String ?? "") \(object["subject"] as? String ?? "")"
        )
      }
    }
    return t
  }

  @discardableResult
  func check(_ s: Scenario) throws -> Int {
    let expected = try trace(s)
    #expect(expected.warnings == expected.jsonWarnings, "\(s.id): text and JSONL warnings")
    for speed in [0.5, 1, 50] {
      let board = playOnBoard(s, speed: speed)
      let shown = board.model.warnings.map { "\(fixed3($0.time)) \($0.kind) \($0.subject)" }
      #expect(shown == expected.warnings, "\(s.id) at \(speed)×: board warnings")
      let lines = board.log.map { $0.subject + "  " + $0.message }
      #expect(lines == expected.lines, "\(s.id) at \(speed)×: log lines")
    }
    return expected.warnings.count
  }

  @Test(arguments: Catalog.all.map(\.id).filter { $0 != "stress" })
  func everyBuiltInScenario(name: String) throws {
    let warnings = try check(try #require(Catalog.named(name)))
    if ["cancellation", "async-pitfalls", "deadlock"].contains(name) { #expect(warnings > 0) }
  }

  /// Random scenarios with cancellations, suspensions, conditions and exclusivity.
  @Test func randomScenarios() throws {
    var rng = SplitMix(seed: 20_261_123)
    var warned = 0
    for round in 0..<12 {
      let yaml = randomScenarioYAML(&rng, round: round)
      let scenario = try ScenarioLoader.parse(
        yaml, file: "random-\(round).yaml", defaultID: "random")
      if try check(scenario) > 0 { warned += 1 }
    }
    // Not vacuous: the generator makes pitfalls that the lints catch.
    #expect(warned >= 3)
  }
}

/// A small deterministic generator (tests must not depend on the system's random source).
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

func randomScenarioYAML(_ rng: inout SplitMix, round: Int) -> String {
  var out = "scenario: random-\(round)\ntitle: random\nqueues:\n"
  out += "  - {name: a, maxConcurrent: \(1 + rng.int(3))}\n  - {name: b}\n"
  out += "operations:\n"
  let n = 4 + rng.int(8)
  let modes = ["cooperative", "ignored", "immediate"]
  let priorities = ["veryLow", "low", "normal", "high", "veryHigh"]
  for i in 0..<n {
    var fields = ["name: o\(i)", "queue: \(rng.int(3) == 0 ? "b" : "a")"]
    fields.append("work: \(1 + rng.int(6))")
    fields.append("priority: \(priorities[rng.int(5)])")
    if i > 0 && rng.int(2) == 0 { fields.append("dependencies: [o\(rng.int(i))]") }
    if rng.int(4) == 0 { fields.append("cancellation: \(modes[rng.int(3)])") }
    if rng.int(5) == 0 { fields.append("conditions: [{mutuallyExclusive: lock}]") }
    if rng.int(6) == 0 { fields.append("finishes: never") }
    out += "  - {\(fields.joined(separator: ", "))}\n"
  }
  out += "actions:\n"
  for _ in 0..<(1 + rng.int(3)) {
    let t = 1 + rng.int(8)
    switch rng.int(3) {
    case 0: out += "  - {at: \(t), cancel: o\(rng.int(n))}\n"
    case 1: out += "  - {at: \(t), suspend: a}\n  - {at: \(t + 2 + rng.int(4)), resume: a}\n"
    default: out += "  - {at: \(t), maxConcurrent: {queue: a, value: \(rng.int(3))}}\n"
    }
  }
  return out
}
