import Foundation
import Testing

@testable import OpsScenarios

/// The byte scanner for plain files against Yams (the loader's other path): on every file it
/// accepts it must build the same tree (texts, plain or quoted, marks) and count the same nodes; a
/// file Yams refuses, or the loader refuses for a key that is not a name, it must decline. Checked on the built-in scenarios, the fuzz corpus,
/// the malformed files, written cases, and thousands of mutations of them all.
@Suite struct PlainComposerTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func files(in directory: String) -> [String] {
    let url = root.appending(path: directory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.sorted().filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.compactMap {
      try? String(contentsOf: url.appending(path: $0), encoding: .utf8)
    }
  }

  /// A few operations in the format of the generated benchmark files.
  static var generated: String {
    var text = "scenario: generated-8\ntitle: \"Generated: 8 operations\"\nqueues:\n"
    text += "  - {name: ingest, maxConcurrent: 16}\n  - {name: notify, maxConcurrent: default}\n"
    text += "operations:\n"
    for i in 0..<8 {
      text += "  - {name: in\(i), queue: ingest, work: 0.\(i + 1), addedAt: \(Double(i) / 50)}\n"
      text += "  - {name: nt\(i), queue: notify, work: 0.04, dependencies: [in\(i)"
      text += i > 0 ? ", nt\(i - 1)], addedAt: 0.0}\n" : "], addedAt: 0.0}\n"
    }
    return text + "actions:\n  - {at: 0.5, cancel: in3}\n"
  }

  static let written = [
    // Block mappings in list items, an indentless list, comments, quotes, empty collections.
    """
    # A comment first.
    scenario: written   # and after a value
    title: 'Single quoted'
    notes: plain text, with commas and (brackets)
    queues:
    - name: main
      maxConcurrent: 2

    - name: other
      suspended: true
    operations:
      - name: a
        work: 1
        dependencies: []
        conditions: [{name: ok}, {mutuallyExclusive: Alert}]
      - {name: b, work: 2, dependencies: [a], produces: [{at: 0.5, operation: c}]}
      - {name: c, produced: true, fails: "quoted, with: colon"}
      - {}
    """,
    "operations:\n- {name: a}\n",
    "operations:\n  - {name: a}\nactions: []\nmoments:\n  - at: 1\n    say: \"hi\"\n",
    "a:\n  b:\n    c: d\n  e: f\ng: h",
  ]

  @Test func everyAcceptedFileReadsAsYamsReadsIt() {
    let bases =
      Self.files(in: "Scenarios") + Self.files(in: "Fuzz/corpus")
      + Self.files(in: "Tests/OpsScenariosTests/Malformed") + Self.written + [Self.generated]
    var accepted = 0
    var acceptedMutations = 0
    var checked = 0
    var state: UInt64 = 7
    for base in bases {
      if agree(base) { accepted += 1 }
      checked += 1
      for _ in 0..<60 {
        if agree(Self.mutate(base, &state)) { acceptedMutations += 1 }
        checked += 1
      }
    }
    // Not vacuous: plain files are taken (28 of the 79 files, 489 of 4,740 mutations when written).
    #expect(accepted >= 20, "only \(accepted) of \(bases.count) files accepted")
    #expect(acceptedMutations >= 300, "only \(acceptedMutations) mutations accepted")
    #expect(checked > 4_000)
  }

  @Test func theGeneratedFormatIsTaken() throws {
    let plain = try #require(PlainComposer.compose(Self.generated))
    #expect(plain.nodes > 100)
    #expect(agree(Self.generated))
  }

  @Test func whatItLeavesToYams() {
    for text in [
      "a: b\n\tc: d\n",  // a tab
      "a: \"caf\\u00e9\"\n",  // an escape
      "a: café\n",  // not ASCII
      "a: &x b\nc: *x\n",  // an anchor and an alias
      "a: !!str 1\n",  // a tag
      "a: [b,\n  c]\n",  // a flow list over two lines
      "a: b\n  c\n",  // a plain scalar over two lines
      "a: b\na: c\n",  // a duplicate key
      "a:\nb: c\n",  // an empty value
      "--- \na: b\n",  // a document marker
      "a: |\n  text\n",  // a block scalar
      "a: 'it''s'\n",  // a doubled quote
      "- a\n- b\n",  // a list at the top
    ] {
      #expect(PlainComposer.compose(text) == nil, "accepted \(text.debugDescription)")
    }
  }

  /// Whether the scanner accepted `text`; records an issue if it did and Yams disagrees.
  @discardableResult
  private func agree(_ text: String) -> Bool {
    guard let plain = PlainComposer.compose(text) else { return false }
    guard case (let node?, let nodes)? = try? ScenarioLoader.composeWithYams(text, file: "t") else {
      Issue.record("accepted what Yams does not: \(text.debugDescription)")
      return true
    }
    #expect(nodes == plain.nodes, "node count in \(text.debugDescription)")
    if let difference = Self.difference(plain.root, node, at: "") {
      Issue.record("\(difference) in \(text.debugDescription)")
    }
    return true
  }

  /// The first place where the two trees differ.
  static func difference(_ a: SourceNode, _ b: SourceNode, at path: String) -> String? {
    guard a.mark == b.mark else {
      return "mark \(String(describing: a.mark)) against \(String(describing: b.mark)) at \(path)"
    }
    switch (a, b) {
    case (.scalar(let x), .scalar(let y)):
      if x.string != y.string || x.plain != y.plain {
        return "scalar \(x.string.debugDescription) (plain \(x.plain)) against "
          + "\(y.string.debugDescription) (plain \(y.plain)) at \(path)"
      }
      return nil
    case (.sequence(let x, _), .sequence(let y, _)):
      guard x.count == y.count else { return "\(x.count) items against \(y.count) at \(path)" }
      for i in x.indices {
        if let d = difference(x[i], y[i], at: "\(path)[\(i)]") { return d }
      }
      return nil
    case (.mapping(let x, _), .mapping(let y, _)):
      guard x.count == y.count else { return "\(x.count) entries against \(y.count) at \(path)" }
      for i in x.indices {
        if let d = difference(x[i].key, y[i].key, at: "\(path).key\(i)") { return d }
        if let d = difference(x[i].value, y[i].value, at: "\(path).value\(i)") { return d }
      }
      return nil
    default:
      return "different kinds of node at \(path)"
    }
  }

  /// One small edit: a character deleted, inserted or replaced (from those YAML gives meaning to),
  /// or a line's indentation changed.
  static func mutate(_ text: String, _ state: inout UInt64) -> String {
    // A linear congruential generator (Knuth's MMIX constants): deterministic, so a failure repeats.
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    var bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return text }
    let specials = Array(" \n:#-,[]{}'\"&*!|>?%@`\\\ta0.".utf8)
    let at = Int(next() % UInt64(bytes.count))
    let special = specials[Int(next() % UInt64(specials.count))]
    switch next() % 4 {
    case 0: bytes.remove(at: at)
    case 1: bytes.insert(special, at: at)
    case 2: bytes[at] = special
    default:
      // Indent or unindent the line holding `at` by one space.
      var start = at
      while start > 0 && bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
      if bytes[start] == UInt8(ascii: " ") && next() % 2 == 0 {
        bytes.remove(at: start)
      } else {
        bytes.insert(UInt8(ascii: " "), at: start)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
