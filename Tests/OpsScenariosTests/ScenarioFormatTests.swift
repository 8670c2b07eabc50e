import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// Every key of the format, read into the engine's specs.
@Suite struct ScenarioFormatTests {
  static let everyKey = """
    scenario: everything
    title: Every key at once
    notes: |
      First line of the lesson.
      Second line.
    speed: 2.5
    queues:
      - name: network
        maxConcurrent: 2
        suspended: false
        qos: utility
      - {name: images, maxConcurrent: default, suspended: true, qos: background}
      - {name: serial, maxConcurrent: 1}
    operations:
      - name: download
        queue: network
        work: 2.0
        priority: high
        qos: userInitiated
        addedAt: 0
        dependencies: [other]
        conditions:
          - mutuallyExclusive: Alert
          - name: loggedIn
            dependency: login
            evaluate: 0.5
            result: satisfied
          - noFailedDependencies
          - {name: noCancelledDependencies, evaluate: 0.25}
          - {name: offline, result: failed, error: "no network", negated: true, silent: false}
          - {mutuallyExclusive: Modal}
        cancellation: immediate
        checkEvery: 0.125
        timeout: 3.0
        completion: true
      - {name: other, queue: images, work: 1, addedAt: 1.5, fails: "disk full"}
      - {name: login, work: 1, produced: true, queue: network}
      - name: scan
        queue: images
        work: 3
        async: true
        produces:
          - {at: 0.5, operation: thumbnail}
          - {at: 3, operation: preview}
      - {name: thumbnail, produced: true, work: 0.5}
      - {name: preview, produced: true}
      - {name: hang, queue: serial, finishes: never, cancellation: ignored, priority: veryLow}
      - {name: group, children: [a, b], addedAt: 2, qos: background}
      - {name: a, work: 1, cancellation: cooperative}
      - {name: b, blocks: [1.0, 0.5]}
      - {name: fence, barrier: true, work: 0, finishes: true}
    actions:
      - {at: 1.5, cancel: download}
      - {at: 2.0, suspend: network}
      - {at: 3.0, resume: network}
      - {at: 3.0, maxConcurrent: {queue: network, value: 3}}
      - {at: 3.5, maxConcurrent: {queue: images, value: default}}
      - {at: 4, cancelAll: network}
      - {at: 5, suspend: group.children}
    """

  /// A byte order mark before the document (as some editors save) is read past, and a problem's
  /// line and column are still the file's.
  @Test func aByteOrderMarkIsReadPast() throws {
    let s = try parseScenario("\u{FEFF}" + Self.everyKey, file: "every.yaml")
    let plain = try parseScenario(Self.everyKey, file: "every.yaml")
    #expect(s.id == plain.id && s.queues == plain.queues && s.notes == plain.notes)
    #expect(s.operations.map(\.spec) == plain.operations.map(\.spec))
    let bad = "\u{FEFF}queues:\n  - {name: q}\noperations:\n  - {name: a, queue: x}\n"
    #expect(throws: ScenarioError.self) { try parseScenario(bad) }
    do {
      _ = try parseScenario(bad)
    } catch let error as ScenarioError {
      #expect(error.problems.first?.line == 4, "\(error)")
    }
  }

  @Test func topLevelKeysAndQueues() throws {
    let s = try parseScenario(Self.everyKey, file: "every.yaml")
    #expect(s.id == "everything")
    #expect(s.title == "Every key at once")
    #expect(s.notes == "First line of the lesson.\nSecond line.\n")
    #expect(s.speed == 2.5)
    #expect(s.source == "every.yaml")
    #expect(s.warnings.isEmpty)
    #expect(
      s.queues == [
        QueueSpec(name: "network", maxConcurrent: 2, suspended: false, qos: .utility),
        QueueSpec(name: "images", maxConcurrent: nil, suspended: true, qos: .background),
        QueueSpec(name: "serial", maxConcurrent: 1),
      ])
  }

  @Test func operationSpecs() throws {
    let s = try parseScenario(Self.everyKey)
    #expect(
      s.operations.map(\.spec.name) == [
        "download", "other", "login", "scan", "thumbnail", "preview", "hang", "group", "a", "b",
        "fence",
      ])
    let download = OperationSpec(
      name: "download", priority: .high, qos: .userInitiated, dependencies: ["other"],
      conditions: [
        ConditionSpec(
          name: "loggedIn", check: .scripted(result: .satisfied, error: nil), evaluate: 0.5,
          dependency: "login"),
        ConditionSpec(name: "noFailedDependencies", check: .noFailedDependencies),
        ConditionSpec(
          name: "noCancelledDependencies", check: .noCancelledDependencies, evaluate: 0.25),
        ConditionSpec(
          name: "offline", check: .scripted(result: .failed, error: "no network"), negated: true),
      ],
      exclusivity: ["Alert", "Modal"], cancellation: .immediate, timeout: 3, completion: true,
      work: WorkScript(duration: 2, checkEvery: 0.125))
    #expect(s.operation(named: "download")?.spec == download)
    #expect(
      s.operation(named: "other")?.spec
        == OperationSpec(name: "other", work: WorkScript(duration: 1, fails: "disk full")))
    #expect(
      s.operation(named: "scan")?.spec
        == OperationSpec(
          name: "scan", isAsync: true,
          work: WorkScript(
            duration: 3,
            produces: [.init(at: 0.5, operation: "thumbnail"), .init(at: 3, operation: "preview")]))
    )
    #expect(
      s.operation(named: "hang")?.spec
        == OperationSpec(
          name: "hang", priority: .veryLow, cancellation: .ignored,
          work: WorkScript(finishes: false)))
    #expect(s.operation(named: "hang")?.spec.kind == .async)
    #expect(
      s.operation(named: "group")?.spec
        == OperationSpec(name: "group", qos: .background, children: ["a", "b"]))
    #expect(s.operation(named: "group")?.spec.kind == .group)
    #expect(s.operation(named: "b")?.spec.work.blocks == [1, 0.5])
    #expect(s.operation(named: "b")?.spec.kind == .block)
    #expect(
      s.operation(named: "fence")?.spec
        == OperationSpec(name: "fence", barrier: true, work: WorkScript(duration: 0)))
  }

  @Test func placementOfEachOperation() throws {
    let s = try parseScenario(Self.everyKey)
    let placed = s.operations.map {
      "\($0.spec.name)@\($0.queue)+\(formatSeconds($0.addedAt))\($0.produced ? "p" : "")"
    }
    #expect(
      placed == [
        "download@network+0", "other@images+1.5",
        // Added by download's condition, on download's queue.
        "login@network+0p",
        "scan@images+0",
        // Produced by scan, on scan's queue.
        "thumbnail@images+0p", "preview@images+0p",
        "hang@serial+0",
        "group@network+2",
        // Children run on their group's inner queue.
        "a@group.children+0", "b@group.children+0",
        // No queue given: the first declared queue.
        "fence@network+0",
      ])
  }

  @Test func actions() throws {
    let s = try parseScenario(Self.everyKey)
    #expect(
      s.actions == [
        ScenarioAction(at: 1.5, command: .cancel(operation: "download")),
        ScenarioAction(at: 2, command: .suspend(queue: "network")),
        ScenarioAction(at: 3, command: .resume(queue: "network")),
        ScenarioAction(at: 3, command: .setMaxConcurrent(queue: "network", value: 3)),
        ScenarioAction(at: 3.5, command: .setMaxConcurrent(queue: "images", value: nil)),
        ScenarioAction(at: 4, command: .cancelAll(queue: "network")),
        ScenarioAction(at: 5, command: .suspend(queue: "group.children")),
      ])
  }

  @Test func defaults() throws {
    let s = try parseScenario(
      "operations:\n  - name: only\n", file: "x/minimal.yaml", id: "minimal")
    #expect(s.id == "minimal")
    #expect(s.title == "minimal")
    #expect(s.notes == "")
    #expect(s.speed == 1)
    // No queue declared: an implicit one named "default", with Foundation's defaults.
    #expect(s.queues == [QueueSpec(name: "default")])
    #expect(s.operations.count == 1)
    let op = try #require(s.operations.first)
    #expect(op.spec == OperationSpec(name: "only"))
    #expect(op.spec.work.duration == 1)
    #expect(op.spec.priority == nil)
    #expect(op.spec.cancellation == .cooperative)
    #expect(op.queue == "default")
    #expect(op.addedAt == 0)
    #expect(op.produced == false)
    #expect(s.actions.isEmpty)
    #expect(s.warnings.isEmpty)
  }

  @Test func emptyOptionalSectionsAreAllowed() throws {
    let s = try parseScenario(
      """
      scenario: sparse
      notes:
      queues: []
      operations:
        - {name: a, dependencies: [], conditions: [], produces: []}
      actions:
      """)
    #expect(s.queues == [QueueSpec(name: "default")])
    #expect(s.operations[0].spec == OperationSpec(name: "a"))
    #expect(s.notes == "")
  }

  @Test func operationsDefaultToTheFirstDeclaredQueue() throws {
    let s = try parseScenario(
      """
      queues: [{name: first}, {name: second}]
      operations: [{name: a}, {name: b, queue: second}]
      """)
    #expect(s.operations.map(\.queue) == ["first", "second"])
  }

  @Test func jsonInputParsesLikeYAML() throws {
    let json = """
      {
        "scenario": "json",
        "title": "From JSON",
        "speed": 2,
        "queues": [{"name": "q", "maxConcurrent": 1, "suspended": true, "qos": "utility"}],
        "operations": [
          {"name": "a", "work": 1.5, "priority": "veryHigh"},
          {"name": "b", "dependencies": ["a"], "conditions": [{"mutuallyExclusive": "X"}, "noFailedDependencies"]},
          {"name": "c", "finishes": "never", "addedAt": 0.5, "timeout": 2}
        ],
        "actions": [{"at": 1, "resume": "q"}, {"at": 2, "maxConcurrent": {"queue": "q", "value": "default"}}]
      }
      """
    let yaml = """
      scenario: json
      title: From JSON
      speed: 2
      queues:
        - {name: q, maxConcurrent: 1, suspended: true, qos: utility}
      operations:
        - {name: a, work: 1.5, priority: veryHigh}
        - {name: b, dependencies: [a], conditions: [{mutuallyExclusive: X}, noFailedDependencies]}
        - {name: c, finishes: never, addedAt: 0.5, timeout: 2}
      actions:
        - {at: 1, resume: q}
        - {at: 2, maxConcurrent: {queue: q, value: default}}
      """
    let a = try parseScenario(json, file: "s.json")
    let b = try parseScenario(yaml)
    #expect(a.id == "json" && a.title == "From JSON" && a.speed == 2)
    #expect(a.queues == b.queues)
    #expect(a.operations.map(\.spec) == b.operations.map(\.spec))
    #expect(a.operations.map(\.addedAt) == [0, 0, 0.5])
    #expect(a.actions == b.actions)
  }

  @Test func compactAndTabIndentedJSON() throws {
    let compact = try parseScenario(
      #"{"operations":[{"name":"a","work":2},{"name":"b","dependencies":["a"]}]}"#)
    #expect(compact.operations.map(\.spec.name) == ["a", "b"])
    #expect(compact.operations[0].spec.work.duration == 2)
    let tabs = try parseScenario("{\n\t\"operations\": [\n\t\t{\"name\": \"a\"}\n\t]\n}\n")
    #expect(tabs.operations.map(\.spec.name) == ["a"])
  }

  @Test func anchorsAndAliasesAreResolved() throws {
    let s = try parseScenario(
      """
      operations:
        - {name: a, conditions: &alert [{mutuallyExclusive: Alert}]}
        - {name: b, conditions: *alert}
      """)
    #expect(s.operations.map(\.spec.exclusivity) == [["Alert"], ["Alert"]])
  }

  @Test func yaml12Scalars() throws {
    // `yes` is text in YAML 1.2 (and JSON): a name, not a boolean.
    let s = try parseScenario(
      "operations: [{name: yes, fails: 404}, {name: 'no', dependencies: [yes]}]")
    #expect(s.operations.map(\.spec.name) == ["yes", "no"])
    #expect(s.operations[0].spec.work.fails == "404")
    let wrong = problems("queues: [{name: q, suspended: yes}]\noperations: [{name: a}]")
    #expect(wrong.map(\.message) == ["expected true or false at queues[0].suspended, found 'yes'"])
  }

  @Test func conditionsAsNamesOrMappings() throws {
    let s = try parseScenario(
      """
      operations:
        - name: a
          conditions:
            - noCancelledDependencies
            - {name: noFailedDependencies, negated: true}
            - {name: silentOne, dependency: login, silent: true}
        - {name: login, produced: true}
      """)
    #expect(
      s.operations[0].spec.conditions == [
        ConditionSpec(name: "noCancelledDependencies", check: .noCancelledDependencies),
        ConditionSpec(name: "noFailedDependencies", check: .noFailedDependencies, negated: true),
        ConditionSpec(name: "silentOne", dependency: "login", silent: true),
      ])
  }

  @Test func dependencyCycleIsAWarningNotAnError() throws {
    let s = try parseScenario(
      """
      operations:
        - {name: x}
        - {name: parse, dependencies: [validate]}
        - {name: validate, dependencies: [normalize]}
        - {name: normalize, dependencies: [parse, x]}
        - {name: p, dependencies: [q]}
        - {name: q, conditions: [{name: c, dependency: r}]}
        - {name: r, produced: true, dependencies: [p]}
      """)
    #expect(
      s.warnings == [
        "dependency cycle among parse, validate and normalize (parse → validate → normalize → parse): "
          + "none of them can start unless one is cancelled",
        "dependency cycle among p, q and r (p → q → r → p): none of them can start unless one is "
          + "cancelled",
      ])
  }

  @Test func longDependencyChainsDoNotOverflowTheStack() throws {
    // 20,000 operations in one chain, closed into a cycle: cycle finding is iterative.
    var yaml = "operations:\n  - {name: op0, dependencies: [op19999]}\n"
    for i in 1..<20_000 { yaml += "  - {name: op\(i), dependencies: [op\(i - 1)]}\n" }
    let s = try parseScenario(yaml)
    #expect(s.operations.count == 20_000)
    #expect(s.warnings.count == 1)
    #expect(
      s.warnings == [
        "dependency cycle among 20000 operations (op0 → op19999 → op19998 → … → op1 → op0): "
          + "none of them can start unless one is cancelled"
      ])
  }
}
