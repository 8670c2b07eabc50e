import Yams

/// The tree from Yams' composer as the decoders' `SourceNode`. An alias is the anchored node itself,
/// shared, never a copy: an alias bomb costs what it is written with, and `Diagnostics` bounds what
/// reading it may cost. Yams hands an alias over as the anchored node again (its anchor is not kept
/// once composing ends), so a list or mapping is known by its place: two lists or two mappings never
/// start at the same place (a mapping that is a key could, and is refused before this).
struct YamsTree {
  struct TooLarge: Error {
    var mark: SourceMark?
  }

  /// The tree and its number of nodes as written (an alias is one). `limit` bounds the nodes.
  static func convert(_ root: Yams.Node, limit: Int) throws(TooLarge) -> (SourceNode, nodes: Int) {
    var converter = YamsTree(limit: limit)
    let node = try converter.convert(root, isKey: false)
    return (node, converter.count)
  }

  private struct Place: Hashable {
    var line: Int
    var column: Int
    var isMapping: Bool
  }

  private let limit: Int
  private var count = 0
  /// Lists and mappings already converted, by place.
  private var converted: [Place: SourceNode] = [:]

  private init(limit: Int) { self.limit = limit }

  private mutating func convert(_ node: Yams.Node, isKey: Bool) throws(TooLarge) -> SourceNode {
    count += 1
    let mark = node.mark.map { SourceMark(line: $0.line, column: $0.column) }
    if count > limit { throw TooLarge(mark: mark) }
    var place: Place?
    if let mark {
      switch node {
      case .sequence, .mapping:
        let p = Place(line: mark.line, column: mark.column, isMapping: node.mapping != nil)
        if let done = converted[p] { return done }
        place = p
      case .scalar, .alias: break
      }
    }
    let result: SourceNode
    switch node {
    case .scalar(let s):
      // Yams resolves a key's tag when it hashes it (to `str`, with the basic resolver): a key's
      // tag no longer tells `!!str` from none, so a key is plain as written.
      let plain = s.style == .plain && (isKey || s.tag.rawValue != Tag.Name.str.rawValue)
      result = .scalar(.init(string: s.string, plain: plain, mark: mark))
    case .sequence(let items):
      var converted: [SourceNode] = []
      converted.reserveCapacity(items.count)
      for item in items { converted.append(try convert(item, isKey: false)) }
      result = .sequence(converted, mark)
    case .mapping(let pairs):
      var entries: [(key: SourceNode, value: SourceNode)] = []
      entries.reserveCapacity(pairs.count)
      for (k, v) in pairs {
        entries.append((try convert(k, isKey: true), try convert(v, isKey: false)))
      }
      result = .mapping(entries, mark)
    case .alias:
      // Yams resolves aliases while composing; an unresolved one reads as an empty scalar.
      result = .scalar(.init(string: "", plain: false, mark: mark))
    }
    if let place { converted[place] = result }
    return result
  }
}
