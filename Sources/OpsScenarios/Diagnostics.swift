/// Collects the problems of one file. After `limit` problems it only counts, so a 10 MB file full of
/// mistakes still answers quickly with a readable list.
final class Diagnostics {
  static let limit = 100

  let file: String
  private(set) var problems: [ScenarioProblem] = []
  private(set) var dropped = 0

  /// How many values reading the file may visit, and until when. Aliases let a small file stand for
  /// an enormous tree (each alias is its anchor again): reading stops with one clear error instead
  /// of working for minutes. Real files visit each value about once.
  private let visitLimit: Int
  private let deadline: ContinuousClock.Instant
  private var visits = 0
  private(set) var exhausted = false

  /// `nodes`: how many nodes the file holds as written.
  init(file: String, nodes: Int = 0, timeLimit: Duration = .seconds(10)) {
    self.file = file
    visitLimit = 2 * nodes + Self.extraVisits
    deadline = .now + timeLimit
  }

  /// Visits beyond the file's own nodes that aliases may cause.
  static let extraVisits = 250_000

  /// Counts `count` values about to be read; false (after one error) once the budget is spent.
  func visit(_ count: Int, at mark: SourceMark?) -> Bool {
    guard !exhausted else { return false }
    visits += count
    if visits > visitLimit {
      exhausted = true
      error(
        mark, "",
        "aliases make this file stand for more than \(visitLimit) values (each alias repeats its "
          + "anchor): a scenario never needs that many; write the values out")
      return false
    }
    if visits & 0xFFFF < count, ContinuousClock.now > deadline {
      exhausted = true
      error(mark, "", "reading the file took too long; stopped here (is it a scenario?)")
      return false
    }
    return true
  }

  var isEmpty: Bool { problems.isEmpty }

  /// Records a problem at `mark`. The suggestion is only worked out for problems that are kept.
  func error(
    _ mark: SourceMark?, _ path: String, _ message: String,
    suggestion: @autoclosure () -> String? = nil
  ) {
    guard problems.count < Self.limit else {
      dropped += 1
      return
    }
    problems.append(
      ScenarioProblem(
        file: file, line: mark?.line, column: mark?.column, path: path, message: message,
        suggestion: suggestion()))
  }

  /// The problems in file order (cross-reference checks find theirs after the first pass).
  func sortedProblems() -> [ScenarioProblem] {
    var sorted = problems.enumerated().sorted { a, b in
      let ka = (a.element.line ?? 0, a.element.column ?? 0, a.offset)
      let kb = (b.element.line ?? 0, b.element.column ?? 0, b.offset)
      return ka < kb
    }.map(\.element)
    if dropped > 0 {
      sorted.append(
        ScenarioProblem(
          file: file,
          message: "too many problems: showing the first \(Self.limit) of \(Self.limit + dropped)"))
    }
    return sorted
  }
}

/// A name as written in the file, with its place, for cross-reference checks.
struct NameRef {
  var name: String
  var mark: SourceMark?
  var place: LazyPath
  /// Where it was written, as messages name it (`operations[3].dependencies[1]`).
  var path: String { place.text }

  init(name: String, mark: SourceMark? = nil, path: LazyPath) {
    self.name = name
    self.mark = mark
    self.place = path
  }

  init(name: String, mark: SourceMark? = nil, path: String) {
    self.init(name: name, mark: mark, path: LazyPath(path))
  }
}

/// A path as messages name it, put together only when one is printed: every name of a file keeps
/// its path for the cross-reference checks, and building them all took a tenth of loading a large
/// file that has no problem at all.
struct LazyPath {
  /// A complete path.
  var parent: String
  var key: String?
  var index: Int?

  init(_ text: String) { parent = text }

  init(_ parent: String, key: String, index: Int? = nil) {
    self.parent = parent
    self.key = key
    self.index = index
  }

  var text: String {
    var text = parent
    if let key { text = Path.key(text, key) }
    if let index { text = Path.index(text, index) }
    return text
  }
}

/// A YAML mapping with its keys as text, in file order.
struct MapNode {
  struct Entry {
    var key: String
    var keyMark: SourceMark?
    var value: SourceNode
  }
  var path: String
  var mark: SourceMark?
  var entries: [Entry]

  // Loops over the indices: `first(where:)` copied each entry it looked at (a decoder asks for every
  // key it knows, most of them absent). Lengths first: unequal strings cost a call to compare, and
  // most keys differ in length (no key the decoders know has a canonical equivalent of another
  // length: they are ASCII letters without a K).
  subscript(key: String) -> SourceNode? {
    index(of: key).map { entries[$0].value }
  }
  func has(_ key: String) -> Bool { index(of: key) != nil }
  func keyMark(_ key: String) -> SourceMark? { index(of: key).flatMap { entries[$0].keyMark } }

  private func index(of key: String) -> Int? {
    let length = key.utf8.count
    for i in entries.indices where entries[i].key.utf8.count == length && entries[i].key == key {
      return i
    }
    return nil
  }
  /// Where the problem with `key` should point: its value, else its key, else the mapping.
  func mark(of key: String) -> SourceMark? { self[key]?.mark ?? keyMark(key) ?? mark }
  func path(_ key: String) -> String { Path.key(path, key) }
  /// The path of `key`, put together only if a message needs it.
  func at(_ key: String) -> LazyPath { LazyPath(path, key: key) }

  /// Each key of the set that the mapping has, with its value, in the set's declaration order: a
  /// decoder switches on the key exhaustively, so a key added to the set must be read.
  func forEach<Key: ScenarioKeySet>(_ keys: Key.Type, _ body: (Key, SourceNode) -> Void) {
    for key in Key.allCases {
      if let node = self[key.rawValue] { body(key, node) }
    }
  }
}

enum Path {
  static func key(_ parent: String, _ key: String) -> String {
    parent.isEmpty ? key : "\(parent).\(key)"
  }
  static func index(_ parent: String, _ i: Int) -> String { "\(parent)[\(i)]" }
  /// How messages name a mapping: `operations[2]`, or "the top level".
  static func place(_ path: String) -> String { path.isEmpty ? "the top level" : path }
}

/// "a, b or c" for the messages that list what is allowed.
func listing(_ words: [String], conjunction: String = "or") -> String {
  guard words.count > 1 else { return words.first ?? "" }
  return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
}
