/// Builds the tree of the plainest YAML, the kind generated and most hand-written scenario files are
/// made of, by scanning bytes: ASCII text indented with spaces; block mappings with name-like keys;
/// block lists; one-line flow mappings and lists; plain scalars and quoted ones without escapes;
/// comments.
///
/// It is the one YAML reader besides Yams, kept for speed: without it a generated 50,000-operation
/// file goes through Yams' composer (an object per node, a tag resolved per key) and `opsview check`
/// misses its goal (docs/PERFORMANCE.md, "Scenario files: one YAML reader besides the byte
/// scanner"). It declines (nil) at the first thing outside that subset (a tab, a non-ASCII byte, an escape, an anchor, a tag, a multi-line scalar, a flow
/// collection over several lines, a duplicate key, ...), and the file goes to Yams, which reads all
/// of YAML and words every error. What it accepts it reads as Yams does, marks included:
/// `PlainComposerTests` compares the two on every scenario and mutations of them.
struct PlainComposer {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  /// 1-based line of `position`, and where that line begins.
  private var line = 1
  private var lineStart = 0
  private var nodes = 0
  // Open lists and mappings collect here and are copied out at their exact size: fresh pages cost
  // faults.
  private var openItems: [SourceNode] = []
  private var openEntries: [(key: SourceNode, value: SourceNode)] = []
  /// Where the key of each open entry is in the text (its offset and length), to find duplicates.
  private var openKeys: [(offset: Int, count: Int)] = []

  private struct Decline: Error {}

  /// The document and its number of nodes as written; nil when declined.
  static func compose(_ text: String) -> (root: SourceNode, nodes: Int)? {
    var text = text
    return text.withUTF8 { bytes in
      var composer = PlainComposer(bytes: bytes)
      guard let root = try? composer.document() else { return nil }
      return (root, composer.nodes)
    }
  }

  /// Scenario files nest a handful of levels; deeper ones go to Yams (and its own limit).
  static let maxDepth = 64

  private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  // MARK: Lines

  private static let space = UInt8(ascii: " ")
  private static let newline = UInt8(ascii: "\n")
  private static let hash = UInt8(ascii: "#")
  private static let colon = UInt8(ascii: ":")
  private static let comma = UInt8(ascii: ",")
  private static let dash = UInt8(ascii: "-")

  private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  private var mark: SourceMark { SourceMark(line: line, column: position - lineStart + 1) }

  private mutating func skipSpaces() {
    while position < bytes.count && bytes[position] == Self.space { position += 1 }
  }

  /// At a line's end (after spaces and a comment): moves to the next line. Anything else declines.
  private mutating func endLine() throws {
    skipSpaces()
    if position < bytes.count && bytes[position] == Self.hash {
      // A comment must follow a space (else `#` would be part of a scalar, which is never here).
      guard position > lineStart && bytes[position - 1] == Self.space else { throw Decline() }
      while position < bytes.count && bytes[position] != Self.newline { position += 1 }
    }
    guard position < bytes.count else { return }
    guard bytes[position] == Self.newline else { throw Decline() }
    position += 1
    line += 1
    lineStart = position
  }

  /// Skips blank and comment lines; at the first character of the next content line, returns its
  /// indentation (nil at the end of the text). Called at a line's start, or again at that first
  /// character (where a block that ended stopped), which it leaves alone.
  private mutating func nextContentLine() throws -> Int? {
    while true {
      guard position < bytes.count else { return nil }
      skipSpaces()
      guard position < bytes.count else { return nil }
      let first = bytes[position]
      if first == Self.newline || first == Self.hash {
        try endLine()
        continue
      }
      return position - lineStart
    }
  }

  // MARK: Block structure

  private mutating func document() throws -> SourceNode {
    try checkBytes()
    // Directives, document markers and a root that is not a mapping go to Yams.
    guard try nextContentLine() == 0 else { throw Decline() }
    guard keyLength(at: position) != nil else { throw Decline() }
    let root = try blockMapping(indent: 0, depth: 0)
    guard position >= bytes.count else { throw Decline() }
    return root
  }

  /// ASCII without tabs, carriage returns or other control characters, else declined at once.
  private func checkBytes() throws {
    for b in bytes where b >= 0x7F || (b < 0x20 && b != Self.newline) { throw Decline() }
  }

  /// The length of a name-like key at `offset` followed by `:` and a space or the line's end, if
  /// there is one.
  private func keyLength(at offset: Int) -> Int? {
    var end = offset
    while let b = byte(at: end), Self.isNameByte(b) { end += 1 }
    guard end > offset, !Self.isDigitOrDash(bytes[offset]), byte(at: end) == Self.colon else {
      return nil
    }
    let after = byte(at: end + 1)
    guard after == nil || after == Self.space || after == Self.newline else { return nil }
    return end - offset
  }

  private static func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
      || b == 0x2D
  }

  private static func isDigitOrDash(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || b == 0x2D }

  /// A block mapping whose keys are at column `indent` (0-based), the first one at `position`.
  private mutating func blockMapping(indent: Int, depth: Int) throws -> SourceNode {
    try checkDepth(depth)
    let start = mark
    nodes += 1
    let base = openEntries.count
    let keyBase = openKeys.count
    var keys: Set<String>?
    while true {
      guard let length = keyLength(at: position) else { throw Decline() }
      try checkDuplicate(at: position, count: length, from: keyBase, &keys)
      let key = scalar(from: position, count: length, plain: true)
      position += length + 1
      skipSpaces()
      let value: SourceNode
      if position >= bytes.count || bytes[position] == Self.newline || bytes[position] == Self.hash
      {
        // The value is a block on the next lines: deeper, or a list at the same indentation.
        try endLine()
        guard let next = try nextContentLine() else { throw Decline() }
        if next > indent {
          value = try blockNode(indent: next, depth: depth + 1)
        } else if next == indent && startsListItem(at: position) {
          value = try blockList(indent: indent, depth: depth + 1)
        } else {
          throw Decline()  // an empty value: libyaml's mark for it is not worth copying
        }
      } else {
        value = try inlineNode(depth: depth + 1, inFlow: false)
        try endLine()
      }
      openEntries.append((key, value))
      guard let next = try nextContentLine(), next >= indent else { break }
      guard next == indent else { throw Decline() }
    }
    let result = SourceNode.mapping(Array(openEntries[base...]), start)
    openEntries.removeSubrange(base...)
    openKeys.removeSubrange(keyBase...)
    return result
  }

  /// A block list whose `-` are at column `indent`, the first one at `position`.
  private mutating func blockList(indent: Int, depth: Int) throws -> SourceNode {
    try checkDepth(depth)
    let start = mark
    nodes += 1
    let base = openItems.count
    while true {
      guard startsListItem(at: position) else { throw Decline() }
      position += 1
      skipSpaces()
      let item: SourceNode
      if keyLength(at: position) != nil {
        // `- name: a` and the lines below it at the key's column: a mapping.
        item = try blockMapping(indent: position - lineStart, depth: depth + 1)
      } else {
        guard position < bytes.count, bytes[position] != Self.newline,
          bytes[position] != Self.hash, bytes[position] != Self.dash
        else { throw Decline() }
        item = try inlineNode(depth: depth + 1, inFlow: false)
        try endLine()
      }
      openItems.append(item)
      guard let next = try nextContentLine() else { break }
      if next > indent { throw Decline() }
      // Less indented, or a key at the indentation of a list that is a mapping's value.
      if next < indent || !startsListItem(at: position) { break }
    }
    let result = SourceNode.sequence(Array(openItems[base...]), start)
    openItems.removeSubrange(base...)
    return result
  }

  private func startsListItem(at offset: Int) -> Bool {
    byte(at: offset) == Self.dash && byte(at: offset + 1) == Self.space
  }

  /// The block that starts at `position` (a content line indented `indent`).
  private mutating func blockNode(indent: Int, depth: Int) throws -> SourceNode {
    if startsListItem(at: position) { return try blockList(indent: indent, depth: depth) }
    guard keyLength(at: position) != nil else { throw Decline() }
    return try blockMapping(indent: indent, depth: depth)
  }

  // MARK: Within a line

  /// A scalar or flow collection starting at `position`, ending on this line.
  private mutating func inlineNode(depth: Int, inFlow: Bool) throws -> SourceNode {
    try checkDepth(depth)
    guard position < bytes.count else { throw Decline() }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try flowMapping(depth: depth)
    case UInt8(ascii: "["): return try flowList(depth: depth)
    case UInt8(ascii: "\""), UInt8(ascii: "'"): return try quoted()
    default: return try plain(inFlow: inFlow)
    }
  }

  /// `"text"` or `'text'` without escapes (a backslash or a doubled quote declines).
  private mutating func quoted() throws -> SourceNode {
    let quote = bytes[position]
    let begin = position + 1
    var end = begin
    while let b = byte(at: end), b != quote {
      if b == Self.newline || b == UInt8(ascii: "\\") { throw Decline() }
      end += 1
    }
    guard end < bytes.count, byte(at: end + 1) != quote else { throw Decline() }
    let node = scalar(from: begin, count: end - begin, plain: false, markAt: position)
    position = end + 1
    return node
  }

  /// A plain scalar: in a flow collection up to `,`, `]` or `}`; in a block up to the line's end or
  /// a comment. Characters that could make it something else (or continue it) decline.
  private mutating func plain(inFlow: Bool) throws -> SourceNode {
    // Indicators that may not begin a plain scalar, or begin one under rules not copied here.
    switch bytes[position] {
    case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","),
      UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
      UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
      UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""),
      UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
      throw Decline()
    default: break
    }
    let begin = position
    var end = begin
    var last = begin  // one past the last non-space
    scan: while end < bytes.count {
      switch bytes[end] {
      case Self.newline: break scan
      case Self.space:
        end += 1
        continue scan
      case Self.comma, UInt8(ascii: "]"), UInt8(ascii: "}"):
        if inFlow { break scan }
        if bytes[end] != Self.comma { throw Decline() }
      case Self.hash:
        // A comment after a space; else part of the scalar, which libyaml reads by rules not
        // copied here.
        if bytes[end - 1] == Self.space { break scan }
        throw Decline()
      case Self.colon, UInt8(ascii: "["), UInt8(ascii: "{"):
        throw Decline()
      default: break
      }
      end += 1
      last = end
    }
    // Empty: a null whose mark libyaml places elsewhere.
    guard last > begin else { throw Decline() }
    position = end
    return scalar(from: begin, count: last - begin, plain: true)
  }

  private mutating func flowMapping(depth: Int) throws -> SourceNode {
    let start = mark
    nodes += 1
    position += 1
    let base = openEntries.count
    let keyBase = openKeys.count
    var keys: Set<String>?
    skipSpaces()
    if byte(at: position) != UInt8(ascii: "}") {
      while true {
        guard let length = keyLength(at: position), byte(at: position + length + 1) == Self.space
        else { throw Decline() }
        try checkDuplicate(at: position, count: length, from: keyBase, &keys)
        let key = scalar(from: position, count: length, plain: true)
        position += length + 1
        skipSpaces()
        let value = try inlineNode(depth: depth + 1, inFlow: true)
        openEntries.append((key, value))
        if try atFlowEnd(UInt8(ascii: "}")) { break }
      }
    }
    position += 1
    let result = SourceNode.mapping(Array(openEntries[base...]), start)
    openEntries.removeSubrange(base...)
    openKeys.removeSubrange(keyBase...)
    return result
  }

  private mutating func flowList(depth: Int) throws -> SourceNode {
    let start = mark
    nodes += 1
    position += 1
    let base = openItems.count
    skipSpaces()
    if byte(at: position) != UInt8(ascii: "]") {
      while true {
        openItems.append(try inlineNode(depth: depth + 1, inFlow: true))
        if try atFlowEnd(UInt8(ascii: "]")) { break }
      }
    }
    position += 1
    let result = SourceNode.sequence(Array(openItems[base...]), start)
    openItems.removeSubrange(base...)
    return result
  }

  /// After an item of a flow collection: true at its `closing` bracket; after a comma, false, at
  /// the next item. Anything else (the line's end included) declines.
  private mutating func atFlowEnd(_ closing: UInt8) throws -> Bool {
    skipSpaces()
    guard let b = byte(at: position) else { throw Decline() }
    if b == closing { return true }
    guard b == Self.comma else { throw Decline() }
    position += 1
    skipSpaces()
    return false
  }

  // MARK: Nodes

  private mutating func scalar(from begin: Int, count: Int, plain: Bool, markAt: Int? = nil)
    -> SourceNode
  {
    nodes += 1
    let string = Self.text(bytes, begin, count)
    let at = markAt ?? begin
    return .scalar(
      .init(string: string, plain: plain, mark: SourceMark(line: line, column: at - lineStart + 1)))
  }

  private func checkDepth(_ depth: Int) throws {
    if depth > Self.maxDepth { throw Decline() }
  }

  /// Duplicate keys go to Yams, which reports them. Compared as bytes (the text is
  /// ASCII); a long mapping keeps a set of its keys.
  private mutating func checkDuplicate(
    at offset: Int, count: Int, from base: Int, _ keys: inout Set<String>?
  ) throws {
    if openKeys.count - base < 16 {
      for other in openKeys[base...] where other.count == count {
        var k = 0
        while k < count && bytes[offset + k] == bytes[other.offset + k] { k += 1 }
        if k == count { throw Decline() }
      }
    } else {
      if keys == nil {
        keys = Set(openKeys[base...].map { Self.text(bytes, $0.offset, $0.count) })
      }
      if !keys!.insert(Self.text(bytes, offset, count)).inserted { throw Decline() }
    }
    openKeys.append((offset, count))
  }

  private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int)
    -> String
  {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
  }
}
