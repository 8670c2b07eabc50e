/// A place in a scenario file: 1-based line and column (in Unicode scalars, as libyaml counts).
/// Kept in 32 bits each (files are at most 64 MB): every scalar of the tree carries one, and the
/// smaller mark makes a mapping entry 64 bytes instead of 96.
struct SourceMark: Sendable, Equatable {
  private let storedLine: UInt32
  private let storedColumn: UInt32
  var line: Int { Int(storedLine) }
  var column: Int { Int(storedColumn) }

  init(line: Int, column: Int) {
    storedLine = UInt32(clamping: line)
    storedColumn = UInt32(clamping: column)
  }
}

/// The YAML tree the decoders read: scalars with their text and whether they were written plain,
/// sequences and mappings, each with its place. Aliases are already resolved (an aliased node is the
/// anchored one, shared, with the anchor's place).
///
/// Sendable stated, not inferred: inferring it goes through the mapping's array of tuples back to
/// `SourceNode`, and some build orders failed with "circular reference" (Swift 6.3, `-debug-cycles`).
enum SourceNode: Sendable {
  struct Scalar: Sendable {
    var string: String
    /// Written plain: unquoted, not a block scalar, no `!!str` tag.
    var plain: Bool
    var mark: SourceMark?
  }

  case scalar(Scalar)
  // Indirect: without it, some build orders of this module fail with "circular reference" while
  // laying out the enum (Swift 6.3), although the payloads are arrays.
  indirect case sequence([SourceNode], SourceMark?)
  indirect case mapping([(key: SourceNode, value: SourceNode)], SourceMark?)

  var mark: SourceMark? {
    switch self {
    case .scalar(let s): s.mark
    case .sequence(_, let mark), .mapping(_, let mark): mark
    }
  }

  var sequence: [SourceNode]? {
    guard case .sequence(let items, _) = self else { return nil }
    return items
  }
}
