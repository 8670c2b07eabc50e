import OpsInput

/// Typed reading of YAML nodes. Each reader reports what it expected and what it found, and returns nil
/// when the value is unusable, so decoding carries on and finds the next problem too.
extension Diagnostics {
  /// The largest time accepted: the engine counts microseconds in 64 bits, and no lesson needs more.
  static let maxSeconds = 1_000_000.0

  func mapping(_ node: SourceNode, _ path: String, expected: String) -> MapNode? {
    guard case .mapping(let m, _) = node else {
      error(node.mark, path, "expected \(expected) at \(Path.place(path)), found \(node.found)")
      return nil
    }
    guard visit(m.count, at: node.mark) else { return nil }
    var entries: [MapNode.Entry] = []
    entries.reserveCapacity(m.count)
    for (key, value) in m {
      guard let text = key.textValue, case .scalar = key else {
        error(key.mark, path, "expected a key name at \(Path.place(path)), found \(key.found)")
        continue
      }
      entries.append(.init(key: text, keyMark: key.mark, value: value))
    }
    return MapNode(path: path, mark: node.mark, entries: entries)
  }

  func sequence(
    _ node: SourceNode, _ path: @autoclosure () -> String, expected: @autoclosure () -> String
  ) -> [SourceNode]? {
    guard case .sequence(let s, _) = node else {
      let path = path()
      error(node.mark, path, "expected \(expected()) at \(path), found \(node.found)")
      return nil
    }
    guard visit(s.count, at: node.mark) else { return nil }
    return s
  }

  /// Reports every key that is not in `allowed`, with a near-miss suggestion.
  func checkKeys(_ map: MapNode, allowed: [String]) {
    for entry in map.entries where !allowed.contains(entry.key) {
      let suggestion = NearMiss.suggestion(for: entry.key, among: allowed)
      let hint = suggestion == nil ? "; expected \(listing(allowed))" : ""
      error(
        entry.keyMark, Path.key(map.path, entry.key),
        "unknown key '\(entry.key)' at \(Path.place(map.path))\(hint)", suggestion: suggestion)
    }
  }

  func require(_ map: MapNode, _ key: String, what: String) -> SourceNode? {
    if let node = map[key] { return node }
    error(map.mark, map.path(key), "missing '\(key)' (\(what)) at \(Path.place(map.path))")
    return nil
  }

  /// A name: any non-empty scalar on one line.
  func name(_ node: SourceNode, _ path: String, what: String) -> NameRef? {
    name(node, LazyPath(path), what: what)
  }

  func name(_ node: SourceNode, _ path: LazyPath, what: String) -> NameRef? {
    guard let text = node.textValue, !text.isEmpty else {
      let at = path.text
      error(node.mark, at, "expected \(what) at \(at), found \(node.found)")
      return nil
    }
    guard oneLine(text, node, path.text, what: what) else { return nil }
    // The rest of the one policy for names (recordings and probes follow it too): no bidirectional
    // control, nothing invisible, not blank, no space at either end, not too long.
    if let problem = TextPolicy.nameProblem(text) {
      error(node.mark, path.text, problem.description(what: what, at: path.text))
      return nil
    }
    return NameRef(name: text, mark: node.mark, path: path)
  }

  /// Whether `text` (a name, a title, an error message) is one line without control characters;
  /// reports the first offending character otherwise. They would reach the terminal when the name is
  /// printed: `\e[2J` clears the screen, `\e]0;…\a` retitles the window.
  func oneLine(
    _ text: String, _ node: SourceNode, _ path: @autoclosure () -> String, what: String
  ) -> Bool {
    // Most names are printable ASCII: one pass over the bytes settles them.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return true }
    let path = path()
    guard !text.contains(where: \.isNewline) else {
      error(node.mark, path, "expected \(what) on one line at \(path)")
      return false
    }
    guard noControlCharacters(text, node, path, what: what, allowed: []) else { return false }
    if let problem = TextPolicy.lineProblem(text) {
      error(node.mark, path, problem.description(what: what, at: path))
      return false
    }
    return true
  }

  /// Reports the first control character (C0, DEL or C1) of `text` that is not `allowed`.
  func noControlCharacters(
    _ text: String, _ node: SourceNode, _ path: String, what: String, allowed: Set<Unicode.Scalar>
  ) -> Bool {
    guard let bad = text.unicodeScalars.first(where: { $0.isControl && !allowed.contains($0) })
    else { return true }
    error(
      node.mark, path,
      "control character \(bad.codePoint) in \(what) at \(path): text in a scenario cannot "
        + "contain control characters\(allowed.isEmpty ? "" : " other than newlines and tabs")")
    return false
  }

  /// Free text (notes: several lines allowed; a title when `oneLine` says what it is); null reads as
  /// empty.
  func text(_ node: SourceNode, _ path: String, oneLine what: String? = nil) -> String? {
    if node.isNull { return "" }
    guard let text = node.textValue else {
      error(node.mark, path, "expected text at \(path), found \(node.found)")
      return nil
    }
    if let what { return oneLine(text, node, path, what: what) ? text : nil }
    guard noControlCharacters(text, node, path, what: "text", allowed: ["\n", "\t"]) else {
      return nil
    }
    if let problem = TextPolicy.notesProblem(text) {
      error(node.mark, path, problem.description(what: "text", at: path))
      return nil
    }
    return text
  }

  func bool(_ node: SourceNode, _ path: @autoclosure () -> String) -> Bool? {
    guard let value = node.boolValue else {
      let at = path()
      error(node.mark, at, "expected true or false at \(at), found \(node.found)")
      return nil
    }
    return value
  }

  /// Seconds on the virtual clock: a number >= 0 (or > 0 when `positive`). The path is worked out
  /// only for a problem (large files have hundreds of thousands of values).
  func seconds(_ node: SourceNode, _ path: @autoclosure () -> String, positive: Bool = false)
    -> Double?
  {
    let bound = positive ? "> 0" : ">= 0"
    guard let value = node.numberValue else {
      let at = path()
      error(
        node.mark, at, "expected a number of seconds \(bound) at \(at), found \(node.found)")
      return nil
    }
    if positive ? value <= 0 : value < 0 {
      let at = path()
      error(
        node.mark, at,
        "expected a number of seconds \(bound) at \(at), found \(formatNumber(value))")
      return nil
    }
    if value > Self.maxSeconds {
      let at = path()
      error(
        node.mark, at,
        "expected at most \(Int(Self.maxSeconds)) seconds at \(at), found \(formatNumber(value))")
      return nil
    }
    return value
  }

  /// One of an enum's raw values, with a suggestion for a near miss.
  func choice<E: RawRepresentable & CaseIterable>(
    _ node: SourceNode, _ path: @autoclosure () -> String, what: String, _: E.Type
  ) -> E? where E.RawValue == String {
    if let text = node.textValue, case .scalar = node, let value = E(rawValue: text) {
      return value
    }
    let at = path()
    return choice(node, at, what: what, among: Array(E.allCases))
  }

  func choice<E: RawRepresentable>(
    _ node: SourceNode, _ path: String, what: String, among cases: [E]
  ) -> E? where E.RawValue == String {
    let allowed = cases.map(\.rawValue)
    guard let text = node.textValue, case .scalar = node else {
      error(
        node.mark, path, "expected \(what) at \(path) (\(listing(allowed))), found \(node.found)")
      return nil
    }
    if let value = E(rawValue: text) { return value }
    error(
      node.mark, path, "unknown \(what) '\(text)' at \(path); expected \(listing(allowed))",
      suggestion: NearMiss.suggestion(for: text, among: allowed))
    return nil
  }

  /// A concurrency limit: an integer >= 0, or "default" (no limit, nil).
  func limit(_ node: SourceNode, _ path: @autoclosure () -> String) -> Int?? {
    if node.textValue == "default" { return .some(nil) }
    if let value = node.intValue, value >= 0 { return .some(value) }
    let at = path()
    error(
      node.mark, at,
      "expected an integer >= 0 or \"default\" at \(at), found \(node.found)",
      suggestion: node.textValue.flatMap { NearMiss.suggestion(for: $0, among: ["default"]) })
    return nil
  }

  /// The list of names under `key` of `map` (dependencies, children); duplicates within the list
  /// are reported.
  func names(_ node: SourceNode, in map: MapNode, _ key: String, what: String) -> [NameRef]? {
    let path = { map.path(key) }
    guard let items = sequence(node, path(), expected: "a list of \(what)s like [a, b]") else {
      return nil
    }
    var refs: [NameRef] = []
    refs.reserveCapacity(items.count)
    var seen = Set<String>()  // for long lists; short ones are scanned
    for (i, item) in items.enumerated() {
      guard let ref = name(item, LazyPath(map.path, key: key, index: i), what: what) else {
        continue
      }
      let repeated: Bool
      if items.count <= 16 {
        repeated = refs.contains { $0.name == ref.name }
      } else {
        repeated = !seen.insert(ref.name).inserted
      }
      if repeated {
        error(ref.mark, ref.path, "'\(ref.name)' is listed twice in \(path())")
        continue
      }
      refs.append(ref)
    }
    return refs
  }
}

extension Unicode.Scalar {
  /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F): the characters a terminal acts on.
  var isControl: Bool { isControlCharacter }
}

/// Numbers in messages as written: `2`, `-0.5`.
func formatNumber(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
