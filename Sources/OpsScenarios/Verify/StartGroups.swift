import OpsEngine
import OpsEvents

/// Which operations started at each instant, in time order: how a run on the virtual clock and a
/// run on Foundation are compared (starts at the same instant have no order a real queue keeps).
public struct StartGroups: Equatable, Sendable, CustomStringConvertible {
  public struct Group: Equatable, Sendable {
    public var time: Double
    public var names: Set<String>
  }
  public var groups: [Group]
  /// When each operation started: its own time, where its group has the time of the group's first
  /// start (a start that came late can join a group that began before the engine's instant).
  public private(set) var startTimes: [String: Double]

  /// Each operation at its group's time.
  public init(groups: [Group]) {
    self.groups = groups
    startTimes = [:]
    for g in groups { for name in g.names { startTimes[name] = g.time } }
  }

  /// Equal when the same operations start in the same order of instants (times are compared by
  /// `Verification` with a tolerance).
  public static func == (a: Self, b: Self) -> Bool {
    a.groups.map(\.names) == b.groups.map(\.names)
  }

  public var description: String {
    groups.map { "\(formatSeconds($0.time)): \($0.names.sorted().joined(separator: ","))" }
      .joined(separator: " | ")
  }

  /// The engine's starts (`→ executing`), grouped by exact time; only the names in `only`, if given.
  /// `before`: only starts earlier than this many scenario seconds.
  public static func engine(_ scenario: Scenario, only: Set<String>? = nil, before: Double? = nil)
    -> StartGroups
  {
    let runtime = scenario.makeRuntime()
    runtime.run(until: 100_000)
    var starts: [(Double, String)] = []
    for e in runtime.events {
      guard case .state(let op, _, .executing, _) = e.kind, only?.contains(op) ?? true,
        before.map({ e.time < $0 }) ?? true
      else {
        continue
      }
      starts.append((e.time, op))
    }
    return grouped(starts, tolerance: 0)
  }

  /// Starts seen on a real clock, clustered: a start within `tolerance` scenario seconds of its
  /// cluster's first belongs to it (a scaled clock is late by scheduling, never early).
  public static func grouped(_ starts: [(Double, String)], tolerance: Double) -> StartGroups {
    var groups: [Group] = []
    for (t, name) in starts.sorted(by: { $0.0 < $1.0 }) {
      if let last = groups.last, t - last.time <= tolerance + 1e-9 {
        groups[groups.count - 1].names.insert(name)
      } else {
        groups.append(Group(time: t, names: [name]))
      }
    }
    var result = StartGroups(groups: groups)
    for (t, name) in starts { result.startTimes[name] = t }
    return result
  }

  /// A run's printed `start` lines (`   4.000  start  decode`).
  public static func program(_ output: String, tolerance: Double = 0.3) -> StartGroups {
    var starts: [(Double, String)] = []
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      guard parts.count >= 3, parts[1] == "start", let t = Double(parts[0]) else { continue }
      starts.append((t, parts[2...].joined(separator: " ")))
    }
    return grouped(starts, tolerance: tolerance)
  }
}
