import Foundation
import OpsInput
import Yams

/// Reads and validates scenario files (YAML, or JSON, which YAML reads too). Every problem is found
/// before anything runs, and all of them are reported at once.
public enum ScenarioLoader {
  /// Larger files are rejected before reading, so `check` answers at once whatever it is pointed at
  /// (a disk image, a log). Far above any real scenario: 50,000 operations take 4 MB of YAML and load
  /// in about a third of a second.
  public static let maxFileSize = 64 * 1024 * 1024

  /// `announce` is told what is awaited when the file is a FIFO nobody writes yet.
  public static func load(
    path: String, announce: ((String) -> Void)? = nil, waitsForWriter: Bool = true
  ) throws -> Scenario {
    let problem = { (message: String) in
      ScenarioError(problems: [ScenarioProblem(file: path, message: message)])
    }
    if let missing = FileProblem.missing(path) { throw problem(missing) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw problem("no such file")
    }
    if isDirectory.boolValue { throw problem("is a directory, not a scenario file") }
    if !waitsForWriter, InputFile.isFIFO(path) {
      throw problem(
        "is a FIFO: the board cannot wait for a program to write into it while it plays")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?
      .intValue
    if let size, size > maxFileSize { throw problem(tooLarge(size)) }
    // A FIFO's open waits for a writer: opened by the one input opener, which says so after a
    // moment instead of blocking without a word (`check FIFO`).
    let opened: (fd: Int32, size: Int?)
    do {
      opened = try InputFile.open(path, what: "a scenario", announce: announce)
    } catch {
      throw problem("cannot be read (\(error))")
    }
    let handle = FileHandle(fileDescriptor: opened.fd, closeOnDealloc: false)
    defer { try? handle.close() }
    // Read at most one byte past the limit: the size reported by the file system can be wrong (pipes).
    let data = (try? handle.read(upToCount: maxFileSize + 1)) ?? Data()
    if data.count > maxFileSize { throw problem(tooLarge(nil)) }
    let text = try decodeUTF8(data, file: path)
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return try parse(text, file: path, defaultID: name)
  }

  public static func parse(_ text: String, file: String, defaultID: String) throws -> Scenario {
    // A byte order mark (editors on Windows write one) says the encoding, nothing else: YAML
    // allows it before the document.
    if text.hasPrefix("\u{FEFF}") {
      return try parse(String(text.dropFirst()), file: file, defaultID: defaultID)
    }
    let size = text.utf8.count
    if size > maxFileSize {
      throw ScenarioError(problems: [ScenarioProblem(file: file, message: tooLarge(size))])
    }
    if let place = TextPolicy.firstSeparator(in: text) {
      throw ScenarioError(problems: [
        ScenarioProblem(
          file: file, line: place.line, column: place.column,
          message:
            "a line separator (U+2028 or U+2029): YAML readers disagree on whether it ends a line, "
            + "so every line number after it would be wrong; use a newline")
      ])
    }
    let root: SourceNode?
    let nodes: Int
    // The plainest files by a byte scanner (see `PlainComposer`: it keeps large files within the
    // loading goals), everything else by Yams.
    if let plain = PlainComposer.compose(text) {
      (root, nodes) = (plain.root, plain.nodes)
    } else {
      (root, nodes) = try composeWithYams(text, file: file)
    }
    guard let root else {
      throw ScenarioError(problems: [
        ScenarioProblem(
          file: file, line: 1, column: 1,
          message: "the file is empty: expected a scenario mapping with at least 'operations'")
      ])
    }
    let diagnostics = Diagnostics(file: file, nodes: nodes)
    let draft = ScenarioDecoder(diagnostics: diagnostics).decode(root, defaultID: defaultID)
    // Reading was cut short: what was read is not the file, so cross-checking it would mislead.
    if diagnostics.exhausted { throw ScenarioError(problems: diagnostics.sortedProblems()) }
    if let draft,
      let scenario = ScenarioValidator(diagnostics: diagnostics).validate(draft, source: file),
      diagnostics.isEmpty
    {
      return scenario
    }
    throw ScenarioError(problems: diagnostics.sortedProblems())
  }

  /// Yams' composer, for what the byte scanner does not take: its errors are the precise ones. A key
  /// that is not a plain name is refused first (`ComplexKeyGuard`).
  static func composeWithYams(_ text: String, file: String) throws -> (SourceNode?, Int) {
    let root: Yams.Node?
    do {
      switch try ComplexKeyGuard.check(text) {
      case .complexKey(let line, let column):
        throw ScenarioError(problems: [
          ScenarioProblem(
            file: file, line: line, column: column,
            message: "keys must be plain names: an alias, a list or a mapping cannot be a key")
        ])
      case .clear(let composed):
        // The basic resolver leaves scalars untyped; YAMLScalars types them (fast, YAML 1.2 rules).
        root = try composed ?? Yams.compose(yaml: text, .basic)
      }
    } catch let error as YamlError {
      throw ScenarioError(problems: [syntaxProblem(error, text: text, file: file)])
    } catch let error as ScenarioError {
      throw error
    } catch {
      throw ScenarioError(problems: [ScenarioProblem(file: file, message: "YAML error: \(error)")])
    }
    guard let root else { return (nil, 0) }
    do {
      let (node, count) = try YamsTree.convert(
        root, limit: 2 * text.utf8.count + Diagnostics.extraVisits)
      return (node, count)
    } catch {
      throw ScenarioError(problems: [
        ScenarioProblem(
          file: file, line: error.mark?.line, column: error.mark?.column,
          message: "aliases make this file stand for too many values (each alias repeats its "
            + "anchor): a scenario never needs that many; write the values out")
      ])
    }
  }

  /// `bytes` is nil when only "more than the limit" is known (a pipe).
  static func tooLarge(_ bytes: Int?) -> String {
    let limit = "limit \(maxFileSize / (1024 * 1024)) MB"
    guard let bytes else { return "file too large (over the \(limit))" }
    let mb = (Double(bytes) / (1024 * 1024) * 10).rounded(.up) / 10
    return "file too large (\(formatNumber(mb)) MB, \(limit))"
  }

  /// The text of a file's bytes, as `load` reads it: strict UTF-8, or a problem naming the first bad
  /// byte. For callers that have the bytes already (the fuzzer).
  public static func decodeText(_ data: Data, file: String) throws -> String {
    try decodeUTF8(data, file: file)
  }

  /// Strict UTF-8, naming the place of the first bad byte (binary junk, Latin-1 text).
  static func decodeUTF8(_ data: Data, file: String) throws -> String {
    if let text = String(validating: data, as: UTF8.self) { return text }
    let bytes = [UInt8](data)
    var offset = 0
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    loop: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput, .error: break loop
      }
    }
    offset = min(offset, bytes.count - 1)
    let before = bytes[..<offset]
    let line = before.count(where: { $0 == 0x0A }) + 1
    let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1
    let hex = String(bytes[offset], radix: 16, uppercase: true)
    throw ScenarioError(problems: [
      ScenarioProblem(
        file: file, line: line, column: column,
        message: "not UTF-8 text: invalid byte 0x\(hex.count == 1 ? "0" + hex : hex); "
          + "a scenario is a YAML or JSON text file")
    ])
  }

  /// Yams' syntax errors, with libyaml's line and column.
  static func syntaxProblem(_ error: YamlError, text: String, file: String) -> ScenarioProblem {
    func located(_ mark: Yams.Mark?, _ message: String) -> ScenarioProblem {
      ScenarioProblem(file: file, line: mark?.line, column: mark?.column, message: message)
    }
    func located(_ place: (line: Int, column: Int)?, _ message: String) -> ScenarioProblem {
      ScenarioProblem(file: file, line: place?.line, column: place?.column, message: message)
    }
    func context(_ c: YamlError.Context?) -> String {
      guard let c else { return "" }
      return " (\(c.text) at line \(c.mark.line), column \(c.mark.column))"
    }
    switch error {
    case .scanner(let c, let problem, let mark, _), .parser(let c, let problem, let mark, _):
      return located(mark, "YAML syntax error: \(problem)\(context(c))")
    case .composer(let c, let problem, let mark, _):
      if c?.text == "expected a single document in the stream" {
        return located(mark, "expected one YAML document, found a second one (remove the '---')")
      }
      return located(mark, "YAML error: \(problem)\(context(c))")
    case .reader(let problem, let offset, _, _):
      return located(offset.map { place(text, $0) }, "not valid YAML text: \(problem)")
    case .duplicatedKeysInMapping(let duplicates, let c):
      let keys = listing(duplicates.map { "'\($0)'" }, conjunction: "and")
      let first = (line: c.mark.line, column: c.mark.column)
      let place = duplicates.count == 1 ? repeatedKey(duplicates[0], after: first, in: text) : nil
      return located(
        place ?? first,
        "duplicate key \(keys) in the same mapping: each key may appear once"
          + (place == nil ? "" : " (the first is at line \(first.line), column \(first.column))"))
    default:
      return located(nil as Yams.Mark?, "YAML error: \(error)")
    }
  }

  /// Yams points at the first of two equal keys; the mistake is usually the second. Looks for it on the
  /// same line (flow style) or at the same column further down, before the mapping ends (block style).
  static func repeatedKey(_ key: String, after first: (line: Int, column: Int), in text: String)
    -> (line: Int, column: Int)?
  {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard first.line >= 1, first.line <= lines.count else { return nil }
    func keyStarts(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
      let k = Array(key.unicodeScalars)
      guard i + k.count <= scalars.count, Array(scalars[i..<(i + k.count)]) == k else {
        return false
      }
      let rest = scalars[(i + k.count)...].drop { $0 == " " }
      return rest.first == ":"
    }
    let firstLine = Array(lines[first.line - 1].unicodeScalars)
    var i = first.column - 1 + key.unicodeScalars.count
    while i < firstLine.count {
      if firstLine[i] == "," || firstLine[i] == "{" {
        var j = i + 1
        while j < firstLine.count && firstLine[j] == " " { j += 1 }
        if keyStarts(firstLine, at: j) { return (first.line, j + 1) }
      }
      i += 1
    }
    for n in first.line..<lines.count {
      let scalars = Array(lines[n].unicodeScalars)
      let indent = scalars.prefix { $0 == " " }.count
      if indent == scalars.count || scalars[indent] == "#" { continue }
      if indent < first.column - 1 { return nil }
      if indent == first.column - 1 && keyStarts(scalars, at: indent) { return (n + 1, indent + 1) }
    }
    return nil
  }

  /// Line and column (1-based, in Unicode scalars) of a character offset.
  private static func place(_ text: String, _ offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for (i, c) in text.enumerated() {
      if i == offset { break }
      if c.isNewline {
        line += 1
        column = 1
      } else {
        column += c.unicodeScalars.count
      }
    }
    return (line, column)
  }
}
