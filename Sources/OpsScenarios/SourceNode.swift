/// A place in a scenario file: 1-based line and column (in Unicode scalars, as libyaml counts).
struct Mark: Sendable, Equatable {
  var line: Int
  var column: Int
}

/// The YAML tree the decoders read: scalars with their text and whether they were written plain,
/// sequences and mappings, each with its place. Aliases are already resolved (an aliased node is the
/// anchored one, shared, with the anchor's place).
enum Node {
  struct Scalar {
    var string: String
    /// Written plain: unquoted, not a block scalar, no `!!str` tag.
    var plain: Bool
    var mark: Mark?
  }

  case scalar(Scalar)
  case sequence([Node], Mark?)
  case mapping([(key: Node, value: Node)], Mark?)

  var mark: Mark? {
    switch self {
    case .scalar(let s): s.mark
    case .sequence(_, let mark), .mapping(_, let mark): mark
    }
  }

  var sequence: [Node]? {
    guard case .sequence(let items, _) = self else { return nil }
    return items
  }
}
