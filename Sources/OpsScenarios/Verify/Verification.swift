import Foundation
import OpsEngine
import OpsEvents

/// `opsview verify`: the scenario's queue-level part on Foundation's OperationQueue against the
/// engine's trace: which operations started, in what order of instants, and when.
public struct Verification: Sendable {
  /// Starts later than the engine's by more than this (scenario seconds) count as a difference.
  public static let tolerance = 0.3
  /// Starts earlier than the engine's by more than this count as a difference (a real clock is
  /// never early, but its readings and the scaled times round).
  static let earliness = 0.05

  public var scenario: String
  public var engine: StartGroups
  public var foundation: StartGroups
  /// Operations left out, each with why (Foundation has no equivalent).
  public var notChecked: [(operation: String, reason: String)]
  public var scale: Double
  /// When the comparison was cut short (see `window`): the scenario seconds compared.
  public var cutAt: Double?

  /// The longest a run on Foundation may take, in real seconds: a scenario that lasts for days on
  /// its clock (`work: 1000000`) must not keep `verify` silent for a day.
  public static let maxRealSeconds = 60.0
  /// The longest span of scenario time compared, whatever the scale.
  public static let maxScenarioSeconds = 1_000.0

  /// The scenario seconds to play on Foundation for a run whose engine ends at `engineEnd`, and
  /// whether that cuts the comparison short (then only starts before it are compared).
  public static func window(engineEnd: Double, scale: Double) -> (seconds: Double, cut: Bool) {
    let full = min(engineEnd, maxScenarioSeconds) + 1
    let bound = maxRealSeconds / scale
    if full <= bound { return (full, engineEnd > maxScenarioSeconds) }
    return (bound, true)
  }

  /// The window and how long it takes in real seconds, before the run (for a word to the user).
  public static func plan(_ scenario: Scenario, scale: Double) -> (
    seconds: Double, cut: Bool, realSeconds: Double
  ) {
    let runtime = scenario.makeRuntime(recording: false)
    runtime.run(until: 100_000)
    let w = window(engineEnd: runtime.now, scale: scale)
    return (w.seconds, w.cut, w.seconds * scale)
  }

  public init(
    scenario: String, engine: StartGroups, foundation: StartGroups,
    notChecked: [(operation: String, reason: String)], scale: Double, cutAt: Double? = nil
  ) {
    self.scenario = scenario
    self.engine = engine
    self.foundation = foundation
    self.notChecked = notChecked
    self.scale = scale
    self.cutAt = cutAt
  }

  /// Runs both and compares. `engineScenario` is what the engine runs (the same scenario, unless a
  /// test gives it a deliberately different one).
  public static func run(_ scenario: Scenario, engineScenario: Scenario? = nil, scale: Double = 0.1)
    -> Verification
  {
    let skipped = notCheckable(scenario)
    let checked = Set(scenario.operations.map(\.spec.name)).subtracting(skipped.map(\.operation))
    let engineRun = (engineScenario ?? scenario)
    let runtime = engineRun.makeRuntime(recording: false)
    runtime.run(until: 100_000)
    let window = window(engineEnd: runtime.now, scale: scale)
    // Cut short, the engine's starts are compared up to where Foundation is still late enough to
    // have started them.
    let engine = StartGroups.engine(
      engineRun, only: checked, before: window.cut ? window.seconds - tolerance : nil)
    let starts = FoundationRun(scale: scale).run(
      scenario, operations: checked, until: window.seconds)
    let inWindow = window.cut ? starts.filter { $0.0 < window.seconds - tolerance } : starts
    return Verification(
      scenario: scenario.id, engine: engine,
      foundation: StartGroups.grouped(inWindow, tolerance: tolerance), notChecked: skipped,
      scale: scale, cutAt: window.cut ? window.seconds - tolerance : nil)
  }

  /// Conditions, exclusivity and groups have no Foundation equivalent; what waits for them (and
  /// what shares a queue with them, whose slots they change) is not checked either.
  public static func notCheckable(_ s: Scenario) -> [(operation: String, reason: String)] {
    var reasons: [String: String] = [:]
    let children = Set(s.operations.flatMap(\.spec.children))
    for op in s.operations {
      let spec = op.spec
      if !spec.conditions.isEmpty {
        reasons[spec.name] = "conditions (\(spec.conditions.map(\.label).joined(separator: ", ")))"
      } else if !spec.exclusivity.isEmpty {
        reasons[spec.name] = "mutual exclusivity (\(spec.exclusivity.joined(separator: ", ")))"
      } else if !spec.children.isEmpty {
        reasons[spec.name] = "a group"
      } else if children.contains(spec.name) {
        reasons[spec.name] = "a group's child"
      } else if op.produced
        && !s.operations.contains(where: {
          $0.spec.work.produces.contains { $0.operation == spec.name }
        })
      {
        reasons[spec.name] = "added by a condition"
      } else if !spec.work.finishes {
        reasons[spec.name] = "never finishes (an asynchronous operation that forgets finish)"
      }
    }
    // A queue with a limit shares its slots: what is not checked there changes when others start.
    let limited = Set(
      s.queues.filter { $0.maxConcurrent != nil }.map(\.name)
        + s.actions.compactMap {
          if case .setMaxConcurrent(let q, _) = $0.command { return q } else { return nil }
        })
    let tainted = Set(s.operations.filter { reasons[$0.spec.name] != nil }.map(\.queue))
      .intersection(limited)
    var changed = true
    while changed {
      changed = false
      for op in s.operations where reasons[op.spec.name] == nil {
        if let producer = s.operations.first(where: {
          reasons[$0.spec.name] != nil
            && $0.spec.work.produces.contains { $0.operation == op.spec.name }
        }) {
          reasons[op.spec.name] = "produced by \(producer.spec.name), which is not checked"
          changed = true
        } else if let d = op.spec.dependencies.first(where: { reasons[$0] != nil }) {
          reasons[op.spec.name] = "depends on \(d), which is not checked"
          changed = true
        } else if tainted.contains(op.queue) {
          reasons[op.spec.name] = "shares \(op.queue) with operations that are not checked"
          changed = true
        }
      }
    }
    return s.operations.compactMap { op in reasons[op.spec.name].map { (op.spec.name, $0) } }
  }

  /// The first difference, in words; nil when they agree.
  public var firstDifference: String? {
    for (i, e) in engine.groups.enumerated() {
      guard i < foundation.groups.count else {
        return
          "at \(formatSeconds(e.time))s the engine starts \(list(e.names)); Foundation starts nothing more"
      }
      let f = foundation.groups[i]
      if f.names != e.names {
        return "at \(formatSeconds(e.time))s the engine starts \(list(e.names)); "
          + "Foundation starts \(list(f.names)) (at \(String(format: "%.3f", f.time))s)"
      }
      if f.time < e.time - Self.earliness || f.time > e.time + Self.tolerance {
        return "\(list(e.names)) started at \(String(format: "%.3f", f.time))s on Foundation, "
          + "\(formatSeconds(e.time))s in the engine"
      }
    }
    if foundation.groups.count > engine.groups.count {
      let f = foundation.groups[engine.groups.count]
      return
        "Foundation also starts \(list(f.names)) at \(String(format: "%.3f", f.time))s; the engine does not"
    }
    return nil
  }

  public var agrees: Bool { firstDifference == nil }

  /// They disagree, but only because Foundation started something late: it started something,
  /// nothing the engine did not, and nothing earlier (what it has not started may be later than the
  /// run). A busy machine does that to a real clock (a start waits for a thread); a difference in
  /// semantics usually starts something earlier or that should not start, and repeats every run.
  public var differsOnlyByLateness: Bool {
    let (e, f) = (engine.startTimes, foundation.startTimes)
    guard !agrees, !f.isEmpty else { return false }
    return f.allSatisfy { name, t in e[name].map { t >= $0 - Self.earliness } ?? false }
  }

  private func list(_ names: Set<String>) -> String { names.sorted().joined(separator: ", ") }

  /// The table `opsview verify` prints.
  public var report: String {
    var out = "verify \(scenario): the engine against Foundation's OperationQueue on this machine\n"
    out += "(\(formatNumber(scale)) real seconds per scenario second; a start counts as on time "
    out += "within \(formatNumber(Self.tolerance))s)\n\n"
    out += "   engine  Foundation  started\n"
    let n = max(engine.groups.count, foundation.groups.count)
    for i in 0..<n {
      let e = i < engine.groups.count ? engine.groups[i] : nil
      let f = i < foundation.groups.count ? foundation.groups[i] : nil
      let et = e.map { String(format: "%9.3f", $0.time) } ?? "        -"
      let ft = f.map { String(format: "%11.3f", $0.time) } ?? "          -"
      let same = e != nil && f != nil && e!.names == f!.names
      let names =
        same || f == nil
        ? list(e?.names ?? [])
        : "engine: \(list(e?.names ?? [])) · Foundation: \(list(f!.names))"
      out += "\(et)  \(ft)  \(same ? "=" : "≠") \(names)\n"
    }
    if !notChecked.isEmpty {
      out += "\nnot checked (Foundation has no equivalent):\n"
      for (op, why) in notChecked { out += "  \(op): \(why)\n" }
    }
    if let cutAt {
      out +=
        "\nonly the first \(formatSeconds(cutAt))s of the scenario were compared (at most "
        + "\(formatNumber(Self.maxRealSeconds)) real seconds, and \(formatNumber(Self.maxScenarioSeconds)) "
        + "scenario seconds); starts after that are not checked\n"
    }
    out += "\n"
    if let d = firstDifference {
      out += "DIFFERENT: \(d)\n"
      if differsOnlyByLateness {
        out +=
          "Foundation only started things later than the engine, never earlier: on a busy"
          + " machine that can be the clock rather than the queue. Run it again (or with a larger"
          + " --scale); a difference that repeats is real.\n"
      }
    } else {
      let count = engine.groups.reduce(0) { $0 + $1.names.count }
      out += "AGREE: \(count) operations started, at the same instants, in the same order\n"
    }
    return out
  }
}
