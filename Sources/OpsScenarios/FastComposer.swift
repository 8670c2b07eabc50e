import CYaml

/// Builds the tree straight from libyaml's events, without Yams' per-node objects: several times
/// faster on large files. It handles what valid scenario files contain; anything else (a syntax
/// error, a second document, a duplicate or non-scalar key, an unknown alias, deep nesting) falls
/// back to Yams, whose precise errors the loader reports.
///
/// An alias is the anchored node itself, shared, never a copy: a "billion laughs" file costs what
/// it is written with; `Diagnostics` bounds what reading it may cost.
struct FastComposer {
  enum Outcome {
    /// The document (nil when the text holds none) and its number of nodes as written.
    case document(SourceNode?, nodes: Int)
    /// Something only Yams reports precisely.
    case fallback
  }

  /// Scenario files nest a handful of levels; deeper ones go to Yams (and its limit of 1,000).
  static let maxDepth = 64

  static func compose(_ text: String) -> Outcome {
    var text = text
    return text.withUTF8 { bytes in
      var composer = FastComposer()
      return composer.run(bytes)
    }
  }

  private var anchors: [String: SourceNode] = [:]
  private var nodes = 0
  // Open lists and mappings collect here and are copied out at their exact size when they end.
  // Grown by doubling, each left up to half of its storage unused: on a generated 10,000-operation
  // file the mappings held 8 MB of a 25 MB peak, and every fresh page costs a fault.
  private var openItems: [SourceNode] = []
  private var openEntries: [(key: SourceNode, value: SourceNode)] = []

  private struct Fallback: Error {}

  private mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return .fallback }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    do {
      var root: SourceNode?
      var documents = 0
      while true {
        var event = try next(&parser)
        defer { yaml_event_delete(&event) }
        switch event.type {
        case YAML_STREAM_END_EVENT:
          return .document(root, nodes: nodes)
        case YAML_DOCUMENT_START_EVENT:
          documents += 1
          if documents > 1 { return .fallback }
        case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT:
          continue
        default:
          root = try node(from: &event, &parser, depth: 0)
        }
      }
    } catch {
      return .fallback
    }
  }

  private func next(_ parser: inout yaml_parser_t) throws -> yaml_event_t {
    var event = yaml_event_t()
    guard yaml_parser_parse(&parser, &event) == 1 else { throw Fallback() }
    return event
  }

  /// The node that `event` starts (its events are consumed).
  private mutating func node(
    from event: inout yaml_event_t, _ parser: inout yaml_parser_t, depth: Int
  ) throws -> SourceNode {
    guard depth <= Self.maxDepth else { throw Fallback() }
    let mark = SourceMark(
      line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
    nodes += 1
    let result: SourceNode
    let anchor: UnsafeMutablePointer<UInt8>?
    switch event.type {
    case YAML_ALIAS_EVENT:
      guard let name = Self.string(event.data.alias.anchor), let target = anchors[name] else {
        throw Fallback()
      }
      return target
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      let string = String(
        decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)),
        as: UTF8.self)
      var plain = scalar.style == YAML_PLAIN_SCALAR_STYLE
      if plain, let tag = Self.string(scalar.tag), tag == "tag:yaml.org,2002:str" { plain = false }
      result = .scalar(.init(string: string, plain: plain, mark: mark))
      anchor = scalar.anchor
    case YAML_SEQUENCE_START_EVENT:
      anchor = event.data.sequence_start.anchor
      let anchorName = Self.string(anchor)
      let base = openItems.count
      while true {
        var inner = try next(&parser)
        defer { yaml_event_delete(&inner) }
        if inner.type == YAML_SEQUENCE_END_EVENT { break }
        let item = try node(from: &inner, &parser, depth: depth + 1)
        openItems.append(item)
      }
      result = .sequence(Array(openItems[base...]), mark)
      openItems.removeSubrange(base...)
      if let anchorName { anchors[anchorName] = result }
      return result
    case YAML_MAPPING_START_EVENT:
      anchor = event.data.mapping_start.anchor
      let anchorName = Self.string(anchor)
      let base = openEntries.count
      var keys: Set<String>?  // for long mappings only; short ones are scanned
      while true {
        var keyEvent = try next(&parser)
        defer { yaml_event_delete(&keyEvent) }
        if keyEvent.type == YAML_MAPPING_END_EVENT { break }
        // Keys are plain names: anything else falls back, where `ComplexKeyGuard` reports it.
        guard keyEvent.type == YAML_SCALAR_EVENT else { throw Fallback() }
        let key = try node(from: &keyEvent, &parser, depth: depth + 1)
        guard case .scalar(let k) = key,
          !Self.isDuplicate(k.string, in: openEntries[base...], &keys)
        else {
          throw Fallback()
        }
        var valueEvent = try next(&parser)
        defer { yaml_event_delete(&valueEvent) }
        let value = try node(from: &valueEvent, &parser, depth: depth + 1)
        openEntries.append((key, value))
      }
      result = .mapping(Array(openEntries[base...]), mark)
      openEntries.removeSubrange(base...)
      if let anchorName { anchors[anchorName] = result }
      return result
    default:
      throw Fallback()
    }
    if let name = Self.string(anchor) { anchors[name] = result }
    return result
  }

  private static func isDuplicate(
    _ key: String, in entries: ArraySlice<(key: SourceNode, value: SourceNode)>,
    _ keys: inout Set<String>?
  ) -> Bool {
    if entries.count < 16 {
      return entries.contains { entry in
        if case .scalar(let s) = entry.key { return s.string == key }
        return false
      }
    }
    if keys == nil {
      keys = Set(
        entries.compactMap { entry in
          if case .scalar(let s) = entry.key { return s.string }
          return nil
        })
    }
    return !keys!.insert(key).inserted
  }

  private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
  }
}
