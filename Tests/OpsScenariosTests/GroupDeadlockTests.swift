import Testing

@testable import OpsScenarios

/// Groups add their children when they start and finish after them: a dependency across that edge
/// can never be satisfied. `check` warns (a deadlock is a legitimate lesson) and names who and why.
@Suite struct GroupDeadlockTests {
  static let why = " (a group adds its children when it starts and finishes after them)"

  @Test func groupThatDependsOnItsOwnChild() throws {
    let s = try parseScenario(
      "operations:\n  - {name: g, children: [c], dependencies: [c]}\n  - {name: c, work: 1}\n")
    #expect(
      s.warnings == [
        "'g' and 'c' can never finish: 'g' waits for 'c' to finish; 'c' is added only when its "
          + "group 'g' starts" + Self.why
      ])
  }

  @Test func childThatDependsOnItsGroup() throws {
    let s = try parseScenario(
      "operations:\n  - {name: g, children: [c]}\n  - {name: c, work: 1, dependencies: [g]}\n")
    #expect(
      s.warnings == [
        "'g' and 'c' can never finish: 'g' finishes only after its child 'c'; 'c' waits for 'g' to "
          + "finish" + Self.why
      ])
  }

  @Test func grandchildThatDependsOnItsOuterGroup() throws {
    let s = try parseScenario(
      """
      operations:
        - {name: outer, children: [inner]}
        - {name: inner, children: [leaf]}
        - {name: leaf, work: 1, dependencies: [outer]}
        - {name: a, dependencies: [b]}
        - {name: b, dependencies: [a]}
      """)
    #expect(
      s.warnings == [
        "dependency cycle among a and b (a → b → a): none of them can start unless one is cancelled",
        "'outer', 'inner' and 'leaf' can never finish: 'outer' finishes only after its child "
          + "'inner'; 'inner' finishes only after its child 'leaf'; 'leaf' waits for 'outer' to "
          + "finish" + Self.why,
      ])
  }

  @Test func throughAnotherOperationAndAProducedOne() throws {
    // The child waits for x, and x waits for the group.
    let s = try parseScenario(
      """
      operations:
        - {name: g, children: [c]}
        - {name: c, work: 2, dependencies: [x], produces: [{at: 1, operation: p}]}
        - {name: x, dependencies: [g]}
        - {name: p, produced: true}
      """)
    #expect(s.warnings.count == 1)
    #expect(s.warnings.first?.hasPrefix("'g', 'c' and 'x' can never finish") == true)
  }

  @Test func ordinaryGroupsAndEveryBuiltInScenarioHaveNoSuchWarning() throws {
    let s = try parseScenario(
      """
      operations:
        - {name: before, work: 1}
        - {name: g, children: [c1, c2], dependencies: [before]}
        - {name: c1, work: 1}
        - {name: c2, work: 1, dependencies: [c1]}
        - {name: after, dependencies: [g]}
      """)
    #expect(s.warnings.isEmpty)
    for scenario in Catalog.all {
      #expect(!scenario.warnings.contains { $0.contains("can never finish") }, "\(scenario.id)")
    }
  }

  @Test func theDeadlockPlaysOutAsPredicted() throws {
    let s = try parseScenario(
      "operations:\n  - {name: g, children: [c], dependencies: [c]}\n  - {name: c, work: 1}\n")
    let runtime = s.makeRuntime()
    runtime.run()
    #expect(runtime.state(of: "g") != .finished)
  }
}
