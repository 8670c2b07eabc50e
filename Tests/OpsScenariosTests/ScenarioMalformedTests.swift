import Foundation
import Testing

@testable import OpsScenarios

/// One expected problem: where, which key path, the exact message, and the suggestion.
struct ExpectedProblem: CustomStringConvertible, Sendable {
  var line: Int?
  var column: Int?
  var path: String
  var message: String
  var suggestion: String? = nil

  init(
    _ line: Int?, _ column: Int?, _ path: String, _ message: String, suggestion: String? = nil
  ) {
    self.line = line
    self.column = column
    self.path = path
    self.message = message
    self.suggestion = suggestion
  }

  func matches(_ p: ScenarioProblem) -> Bool {
    p.line == line && p.column == column && p.path == path && p.message == message
      && p.suggestion == suggestion
  }

  var description: String {
    "\(line ?? 0):\(column ?? 0) [\(path)] \(message) ~\(suggestion ?? "")"
  }
}

/// The files in Tests/OpsScenariosTests/Malformed, each with every problem it must report.
@Suite struct ScenarioMalformedTests {
  static let seconds0 = "expected a number of seconds >= 0 at"
  static let topKeys = "(scenario, title, notes, speed, queues, operations, actions and moments)"
  static let commands = "cancel, suspend, resume, maxConcurrent or cancelAll"
  static let topKeyList = "scenario, title, notes, speed, queues, operations, actions or moments"

  static let expectations: [String: [ExpectedProblem]] = [
    // YAML syntax: libyaml's own line and column.
    "syntax-unclosed-flow.yaml": [
      .init(
        4, 5, "",
        "YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 3, column 5)"
      )
    ],
    "syntax-bad-indent.yaml": [
      .init(
        5, 4, "",
        "YAML syntax error: did not find expected '-' indicator (while parsing a block collection at line 3, column 3)"
      )
    ],
    "syntax-tab.yaml": [
      .init(
        3, 1, "",
        "YAML syntax error: found character that cannot start any token (while scanning for the next token at line 3, column 1)"
      )
    ],
    "syntax-error.json": [
      .init(
        5, 18, "",
        "YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 5, column 5)"
      )
    ],
    "multi-document.yaml": [
      .init(4, 1, "", "expected one YAML document, found a second one (remove the '---')")
    ],
    "duplicate-key.yaml": [
      .init(
        5, 5, "",
        "duplicate key 'work' in the same mapping: each key may appear once (the first is at line 4, column 5)"
      )
    ],
    "duplicate-key-flow.yaml": [
      .init(
        3, 34, "",
        "duplicate key 'work' in the same mapping: each key may appear once (the first is at line 3, column 15)"
      )
    ],
    // Not a scenario at all.
    "empty.yaml": [
      .init(1, 1, "", "the file is empty: expected a scenario mapping with at least 'operations'")
    ],
    "comments-only.yaml": [
      .init(1, 1, "", "the file is empty: expected a scenario mapping with at least 'operations'")
    ],
    "binary-junk.bin": [
      .init(2, 1, "", "not UTF-8 text: invalid byte 0x89; a scenario is a YAML or JSON text file")
    ],
    "latin1-text.yaml": [
      .init(2, 11, "", "not UTF-8 text: invalid byte 0xE9; a scenario is a YAML or JSON text file")
    ],
    "control-characters.yaml": [
      .init(3, 13, "", "not valid YAML text: control characters are not allowed")
    ],
    "top-level-list.yaml": [
      .init(
        1, 1, "", "expected a mapping of scenario keys \(topKeys) at the top level, found a list")
    ],
    "top-level-scalar.yaml": [
      .init(
        1, 1, "",
        "expected a mapping of scenario keys \(topKeys) at the top level, found 'just some words'")
    ],
    "operations-not-a-list.yaml": [
      .init(3, 3, "operations", "expected a list of operations at operations, found a mapping")
    ],
    // Unknown keys, with near-miss suggestions.
    "unknown-key.yaml": [
      .init(
        8, 5, "operations[2].dependsOn", "unknown key 'dependsOn' at operations[2]",
        suggestion: "dependencies")
    ],
    "unknown-key.json": [
      .init(5, 19, "operations[1].wrok", "unknown key 'wrok' at operations[1]", suggestion: "work")
    ],
    "unknown-top-level-key.yaml": [
      .init(
        1, 1, "operations", "missing 'operations' at the top level: a scenario needs at least one"),
      .init(2, 1, "titel", "unknown key 'titel' at the top level", suggestion: "title"),
      .init(
        3, 1, "operation", "unknown key 'operation' at the top level", suggestion: "operations"),
    ],
    // Wrong types and bad values.
    "wrong-type-work.yaml": [
      .init(3, 21, "operations[0].work", "\(seconds0) operations[0].work, found 'fast'"),
      .init(4, 21, "operations[1].work", "\(seconds0) operations[1].work, found a list"),
      .init(5, 21, "operations[2].work", "\(seconds0) operations[2].work, found the string \"2\""),
    ],
    "negative-time.yaml": [
      .init(3, 33, "operations[0].addedAt", "\(seconds0) operations[0].addedAt, found -1")
    ],
    "non-finite-time.yaml": [
      .init(3, 21, "operations[0].work", "\(seconds0) operations[0].work, found '.inf'"),
      .init(
        4, 21, "operations[1].work",
        "expected at most 1000000 seconds at operations[1].work, found 1e+300"),
    ],
    "bad-intervals.yaml": [
      .init(
        3, 36, "operations[0].checkEvery",
        "expected a number of seconds > 0 at operations[0].checkEvery, found 0"),
      .init(
        4, 33, "operations[1].timeout",
        "expected a number of seconds > 0 at operations[1].timeout, found -2"),
      .init(5, 27, "operations[2].blocks[1]", "\(seconds0) operations[2].blocks[1], found -0.5"),
    ],
    "bad-priority.yaml": [
      .init(
        3, 25, "operations[0].priority",
        "unknown priority 'hihg' at operations[0].priority; expected veryLow, low, normal, high or veryHigh",
        suggestion: "high"),
      .init(
        4, 20, "operations[1].qos",
        "unknown qos 'userinitiated' at operations[1].qos; expected userInteractive, userInitiated, utility, background or default",
        suggestion: "userInitiated"),
      .init(
        5, 29, "operations[2].cancellation",
        "unknown cancellation 'politely' at operations[2].cancellation; expected cooperative, immediate or ignored"
      ),
    ],
    "bad-max-concurrent.yaml": [
      .init(
        3, 30, "queues[0].maxConcurrent",
        "expected an integer >= 0 or \"default\" at queues[0].maxConcurrent, found '-1'"),
      .init(
        4, 30, "queues[1].maxConcurrent",
        "expected an integer >= 0 or \"default\" at queues[1].maxConcurrent, found 'unlimited'"),
      .init(
        5, 30, "queues[2].maxConcurrent",
        "expected an integer >= 0 or \"default\" at queues[2].maxConcurrent, found '1.5'"),
    ],
    "missing-names.yaml": [
      .init(3, 5, "queues[0].name", "missing 'name' (the queue's name) at queues[0]"),
      .init(5, 5, "operations[0].name", "missing 'name' (the operation's name) at operations[0]"),
      .init(
        6, 12, "operations[1].name",
        "expected an operation name at operations[1].name, found nothing"),
    ],
    "condition-mistakes.yaml": [
      .init(
        6, 53, "operations[1].conditions[0].result",
        "unknown result 'failure' at operations[1].conditions[0].result; expected satisfied or failed",
        suggestion: "failed"),
      .init(
        7, 9, "operations[1].conditions[1]",
        "unknown condition 'noFailedDeps' at operations[1].conditions[1]; a condition is "
          + "noFailedDependencies or noCancelledDependencies, or a mapping like {name: loggedIn} or "
          + "{mutuallyExclusive: Alert}",
        suggestion: "noFailedDependencies"),
      .init(
        8, 27, "operations[1].conditions[2].error",
        "'error' is the message of a failed condition: add 'result: failed' at operations[1].conditions[2]"
      ),
      .init(
        9, 9, "operations[1].conditions[3].name",
        "missing 'name' at operations[1].conditions[3]: a condition needs a name, or 'mutuallyExclusive: CATEGORY'"
      ),
    ],
    "group-with-work.yaml": [
      .init(
        3, 15, "operations[0].work",
        "a group has no work of its own: remove 'work' at operations[0] (it has children)")
    ],
    // Names that do not exist, or exist twice.
    "unknown-dependency.yaml": [
      .init(
        4, 44, "operations[1].dependencies[0]",
        "unknown operation 'donwload' at operations[1].dependencies[0]", suggestion: "download")
    ],
    "unknown-queue.yaml": [
      .init(
        6, 29, "operations[0].queue", "unknown queue 'netwrok' at operations[0].queue",
        suggestion: "network")
    ],
    "duplicate-operation.yaml": [
      .init(
        5, 12, "operations[2].name",
        "duplicate operation name 'a' at operations[2].name; the first is at line 3")
    ],
    "duplicate-queue.yaml": [
      .init(
        4, 11, "queues[1].name",
        "duplicate queue name 'main' at queues[1].name; the first is at line 3")
    ],
    "self-dependency.yaml": [
      .init(3, 30, "operations[0].dependencies[0]", "operation 'a' cannot depend on itself")
    ],
    "child-of-two-groups.yaml": [
      .init(
        4, 31, "operations[1].children[0]",
        "'shared' is already a child of 'first' (line 3): an operation belongs to one group")
    ],
    "groups-contain-each-other.yaml": [
      .init(
        3, 12, "operations[0].name",
        "'outer' can never be added to a queue: everything that would add it is never added itself"),
      .init(
        4, 12, "operations[1].name",
        "'inner' can never be added to a queue: everything that would add it is never added itself"),
    ],
    "child-placement.yaml": [
      .init(
        4, 12, "queues[1].name",
        "queue name 'g.children' is taken by the inner queue of the group 'g'"),
      .init(
        7, 22, "operations[1].queue",
        "'c' is a child of 'g' and runs on its inner queue 'g.children', not on 'main': remove 'queue' at operations[1]"
      ),
      .init(
        7, 28, "operations[1].addedAt",
        "'c' is added when its group starts: remove 'addedAt' at operations[1]"),
    ],
    // Produced operations.
    "produced-by-nobody.yaml": [
      .init(
        4, 28, "operations[1].produced",
        "'login' is declared 'produced: true' but nothing produces it: name it in a 'produces' entry "
          + "or as a condition's 'dependency'")
    ],
    "produces-not-produced.yaml": [
      .init(
        6, 28, "operations[0].produces[0].operation",
        "'thumb' must be declared with 'produced: true' at operations[1], because 'scan' produces it; "
          + "otherwise it would also be added at its addedAt")
    ],
    "produce-after-finish.yaml": [
      .init(
        6, 14, "operations[0].produces[0].at",
        "'scan' finishes after 2s of work, so it cannot produce 'thumb' at 5s (operations[0].produces[0].at)"
      )
    ],
    // Actions.
    "action-unknown-names.yaml": [
      .init(
        7, 21, "actions[0].cancel", "unknown operation 'donwload' at actions[0].cancel",
        suggestion: "download"),
      .init(
        8, 22, "actions[1].suspend", "unknown queue 'netwerk' at actions[1].suspend",
        suggestion: "network"),
      .init(
        9, 52, "actions[2].maxConcurrent.value",
        "expected an integer >= 0 or \"default\" at actions[2].maxConcurrent.value, found 'lots'"),
    ],
    "action-malformed.yaml": [
      .init(5, 5, "actions[0].at", "missing 'at' (when, in scenario seconds) at actions[0]"),
      .init(
        6, 24, "actions[1].suspend",
        "an action has one command, found 'cancel' and 'suspend' at actions[1]"),
      .init(7, 5, "actions[2]", "missing a command at actions[2]; expected one of \(commands)"),
      .init(8, 5, "actions[3]", "missing a command at actions[3]; expected one of \(commands)"),
      .init(8, 13, "actions[3].pause", "unknown key 'pause' at actions[3]", suggestion: "suspend"),
    ],
    // Several mistakes in one file: all of them, in file order.
    "many-problems.yaml": [
      .init(
        3, 33, "queues[0].maxConcurrent",
        "expected an integer >= 0 or \"default\" at queues[0].maxConcurrent, found 'two'"),
      .init(5, 21, "operations[0].work", "\(seconds0) operations[0].work, found -1"),
      .init(
        5, 25, "operations[0].priorty", "unknown key 'priorty' at operations[0]",
        suggestion: "priority"),
      .init(
        6, 33, "operations[1].dependencies[1]",
        "unknown operation 'zz' at operations[1].dependencies[1]"),
      .init(
        7, 12, "operations[2].name",
        "duplicate operation name 'a' at operations[2].name; the first is at line 5"),
      .init(9, 10, "actions[0].at", "\(seconds0) actions[0].at, found 'soon'"),
    ],
    // "Billion laughs": refused before Yams would hash a 10^9-node key; as values, aliases are cheap.
    "alias-bomb-key.yaml": [
      .init(11, 3, "", "keys must be plain names: an alias, a list or a mapping cannot be a key")
    ],
    // Found by the fuzzer (it hung): the key is an explicit one inside a flow list, and a duplicate
    // key earlier sends the file to Yams.
    "alias-bomb-key-in-list.yaml": [
      .init(10, 31, "", "keys must be plain names: an alias, a list or a mapping cannot be a key")
    ],
    "alias-bomb-value.yaml": (0...7).map {
      .init($0 + 2, 1, "a\($0)", "unknown key 'a\($0)' at the top level; expected \(topKeyList)")
    }
      + (0...9).map {
        // An aliased node keeps the place of its anchor.
        .init(
          9, 5, "operations[\($0)]",
          "expected an operation mapping like {name: download, work: 2} at operations[\($0)], found a list"
        )
      } + [.init(10, 1, "a8", "unknown key 'a8' at the top level; expected \(topKeyList)")],
    // Not malformed: a dependency cycle is only a warning.
    "dependency-cycle.yaml": [],
  ]

  static var fixtureNames: [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: malformedDirectory.path).sorted()) ?? []
  }

  @Test func thereAreEnoughFixturesAndEachHasExpectations() {
    let names = Self.fixtureNames
    #expect(names.count >= 25)
    #expect(names.filter { Self.expectations[$0]?.isEmpty == false }.count >= 25)
    #expect(Set(names) == Set(Self.expectations.keys))
  }

  @Test(arguments: ScenarioMalformedTests.fixtureNames)
  func fixtureReportsExactlyItsProblems(_ name: String) throws {
    let expected = try #require(Self.expectations[name])
    let found = fixtureProblems(name)
    #expect(found.count == expected.count, "\(found.map(\.description))")
    for (e, p) in zip(expected, found) {
      #expect(
        e.matches(p),
        "expected \(e), found \(p.line ?? 0):\(p.column ?? 0) [\(p.path)] \(p.message) ~\(p.suggestion ?? "")"
      )
    }
    for p in found {
      // Every problem names its file, and the description is `FILE:LINE:COLUMN: error: …`.
      #expect(p.file.hasSuffix("Malformed/\(name)"))
      #expect(p.description.hasPrefix("\(p.file):\(p.line!):\(p.column!): error: "))
    }
  }

  @Test func descriptionInTheCompilerStyle() {
    let problem = ScenarioProblem(
      file: "s.yaml", line: 8, column: 5, path: "operations[2].dependsOn",
      message: "unknown key 'dependsOn' at operations[2]", suggestion: "dependencies")
    #expect(
      problem.description
        == "s.yaml:8:5: error: unknown key 'dependsOn' at operations[2] — did you mean 'dependencies'?"
    )
    let error = ScenarioError(problems: [
      problem, ScenarioProblem(file: "s.yaml", message: "no such file"),
    ])
    #expect(error.description == problem.description + "\ns.yaml: error: no such file")
  }

  @Test func cycleIsAWarning() throws {
    let s = try ScenarioLoader.load(
      path: malformedDirectory.appending(path: "dependency-cycle.yaml").path)
    #expect(
      s.warnings == [
        "dependency cycle among a, c and b (a → c → b → a): none of them can start unless one is cancelled"
      ])
    #expect(s.id == "cycle")
  }

  @Test func fileOverTheLimitIsRejectedBeforeReading() throws {
    let dir = FileManager.default.temporaryDirectory.appending(path: "opsview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // A sparse file: 65 MB on paper, nothing on disk; only its size can reject it.
    let path = dir.appending(path: "huge.yaml").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data("operations:\n".utf8)))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(ScenarioLoader.maxFileSize) + 1_000_000)
    try handle.close()
    let error = try #require(throws: ScenarioError.self) { try ScenarioLoader.load(path: path) }
    #expect(error.problems.count == 1)
    #expect(error.problems.first?.message == "file too large (65 MB, limit 64 MB)")
    #expect(error.problems.first?.line == nil)
    // The same size handed over directly is rejected the same way.
    let text = String(repeating: "#", count: ScenarioLoader.maxFileSize + 1)
    #expect(throws: ScenarioError.self) {
      try ScenarioLoader.parse(text, file: "huge.yaml", defaultID: "huge")
    }
  }

  /// Real files are far over 1 MB: 20,000 operations take 1.5 MB.
  @Test func fileOverTheOldLimitLoads() throws {
    var text = "operations:\n  - {name: operation0, work: 1}\n"
    for i in 1..<20_000 {
      text += "  - {name: operation\(i), work: 1, dependencies: [operation\(i - 1)]}\n"
    }
    #expect(text.utf8.count > 1_000_000)
    let s = try ScenarioLoader.parse(text, file: "big.yaml", defaultID: "big")
    #expect(s.operations.count == 20_000)
    #expect(s.operations.last?.spec.dependencies == ["operation19998"])
  }

  /// Aliases repeat their anchor: 3,000 aliased operations with 3,000 aliased dependencies each is a
  /// small file that stands for nine million names. Reading stops after its budget, with one error.
  @Test func aliasesThatMultiplyWorkAreStoppedWithAClearError() {
    var yaml = "deps: &d [" + (0..<3000).map { "n\($0)" }.joined(separator: ", ") + "]\n"
    yaml += "operations:\n  - &o {name: x, dependencies: *d}\n"
    yaml += String(repeating: "  - *o\n", count: 3000)
    let found = problems(yaml)
    let budget = found.filter {
      $0.message.hasPrefix("aliases make this file stand for more than ")
    }
    #expect(budget.count == 1)
    #expect(
      budget.first?.message.hasSuffix(
        " values (each alias repeats its anchor): a scenario never needs that many; write the values out"
      ) == true)
    #expect(found.count <= Diagnostics.limit + 1)
  }

  @Test func missingFileAndDirectory() {
    let missing = (try? ScenarioLoader.load(path: "/nonexistent/s.yaml")) == nil
    #expect(missing)
    do {
      _ = try ScenarioLoader.load(path: "/nonexistent/s.yaml")
    } catch let error as ScenarioError {
      #expect(error.description == "/nonexistent/s.yaml: error: no such file")
    } catch { Issue.record("\(error)") }
    do {
      _ = try ScenarioLoader.load(path: malformedDirectory.path)
    } catch let error as ScenarioError {
      #expect(error.problems.map(\.message) == ["is a directory, not a scenario file"])
    } catch { Issue.record("\(error)") }
  }

  @Test func tooManyProblemsAreCappedButCounted() {
    var yaml = "operations:\n"
    for i in 0..<150 { yaml += "  - {name: op\(i), work: -1}\n" }
    let found = problems(yaml)
    #expect(found.count == Diagnostics.limit + 1)
    #expect(found.last?.message == "too many problems: showing the first 100 of 150")
  }

  @Test func complexKeysAreFoundWhereverTheyAreWritten() {
    // The place is the key's own start.
    #expect(ComplexKeyGuard.find(in: "a: &x 1\nb: {*x : 1}\n")! == (2, 5))
    #expect(ComplexKeyGuard.find(in: "a: &x [1]\n[*x]: 2\n")! == (2, 1))
    #expect(ComplexKeyGuard.find(in: "a: &x 1\nb: {? *x : 1}\n")! == (2, 7))
    #expect(ComplexKeyGuard.find(in: "? {a: 1}\n: 2\n")! == (1, 3))
    // An explicit key inside a flow list (a one-pair mapping), with no space before the `?`: a
    // scan of the text misses it, and Yams hangs hashing the key.
    #expect(ComplexKeyGuard.find(in: "a: &x [1]\nb: [*x,? *x]\n")! == (2, 10))
    // Values, list items and prose that looks like keys are not keys.
    #expect(ComplexKeyGuard.find(in: "a: &x [1]\nb: *x\nc: [*x, {d: *x}]\n") == nil)
    #expect(ComplexKeyGuard.find(in: "notes: \"see [1]: *this*: now\"\n") == nil)
    #expect(ComplexKeyGuard.find(in: "notes: \"Q&A: *bold*\"\n") == nil)
  }

  @Test func deepNestingIsASyntaxErrorNotACrash() {
    let yaml =
      "operations: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
    let found = problems(yaml)
    #expect(found.count == 1)
    #expect(
      found.first?.message.hasPrefix("YAML syntax error: Maximum nesting level reached") == true)
  }
}

/// Paths that exist but cannot be files: say what they are.
@Suite struct ScenarioPathTests {
  static func message(_ path: String) -> String? {
    do {
      _ = try Catalog.resolve(path)
      return nil
    } catch let error as ScenarioError {
      return error.problems.first?.message
    } catch { return "\(error)" }
  }

  @Test func symbolicLinkLoopAndDanglingLinkAreNamed() throws {
    let dir = FileManager.default.temporaryDirectory.appending(path: "opsview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let loop = dir.appending(path: "loop.yaml").path
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
    #expect(
      Self.message(loop)
        == "is a symbolic link loop (too many levels of symbolic links), not a scenario file")
    let dangling = dir.appending(path: "dangling.yaml").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "gone.yaml")
    #expect(Self.message(dangling) == "is a symbolic link to 'gone.yaml', which does not exist")
    #expect(Self.message(dir.appending(path: "absent.yaml").path) == "no such file")
  }
}
