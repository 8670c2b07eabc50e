import Yams

/// The tree from Yams' own composer (the loader's fallback: files the fast composer does not take),
/// as the decoders' `SourceNode`. Yams shares an aliased node; copying it out would expand an alias bomb,
/// so the copy stops after `limit` nodes.
enum YamsTree {
  struct TooLarge: Error {
    var mark: SourceMark?
  }

  static func convert(_ root: Yams.Node, limit: Int) throws(TooLarge) -> (SourceNode, nodes: Int) {
    var count = 0
    let node = try convert(root, count: &count, limit: limit)
    return (node, count)
  }

  private static func convert(_ node: Yams.Node, count: inout Int, limit: Int) throws(TooLarge)
    -> SourceNode
  {
    count += 1
    let mark = node.mark.map { SourceMark(line: $0.line, column: $0.column) }
    if count > limit { throw TooLarge(mark: mark) }
    switch node {
    case .scalar(let s):
      let plain = s.style == .plain && s.tag.rawValue != Tag.Name.str.rawValue
      return .scalar(.init(string: s.string, plain: plain, mark: mark))
    case .sequence(let items):
      var converted: [SourceNode] = []
      for item in items { converted.append(try convert(item, count: &count, limit: limit)) }
      return .sequence(converted, mark)
    case .mapping(let pairs):
      var entries: [(key: SourceNode, value: SourceNode)] = []
      for (key, value) in pairs {
        entries.append(
          (
            try convert(key, count: &count, limit: limit),
            try convert(value, count: &count, limit: limit)
          ))
      }
      return .mapping(entries, mark)
    case .alias:
      // Yams resolves aliases while composing; an unresolved one reads as an empty scalar.
      return .scalar(.init(string: "", plain: false, mark: mark))
    }
  }
}
