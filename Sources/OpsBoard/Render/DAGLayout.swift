/// The whole dependency graph laid out left to right: each operation in the column of its dependency
/// depth (longest chain of dependencies before it), rows ordered to put operations near what they
/// wait for. A group's children are placed before the group (it waits for them) and a produced
/// operation after its producer. Edges that skip columns pass through placeholder nodes so every edge
/// joins adjacent columns. Computed once per change of structure (operations or edges added), never
/// per frame; while playing, over several frames (`DAGLayoutBuilder`).
struct DAGLayout {
  /// Why two operations are joined; each kind is drawn its own way.
  enum EdgeKind: Equatable {
    /// The right one waits for the left one (a dependency).
    case dependency
    /// The right one is a group, waiting for the left one, its child.
    case child
    /// The left one produced the right one while it executed.
    case produced
  }

  struct Node {
    /// Model index of the operation, or nil for a placeholder on a long edge.
    let op: Int?
    /// The operation an edge through this node starts from (its state colours the edge).
    let source: Int
    let layer: Int
    var kind: EdgeKind = .dependency
    var row = 0
  }

  struct Edge {
    let from: Int
    let to: Int
    let kind: EdgeKind
  }

  let structureVersion: Int
  private(set) var nodes: [Node] = []
  /// Node ids of each column, in row order.
  private(set) var layers: [[Int]] = []
  /// The node of each operation (by model index).
  private(set) var nodeOfOperation: [Int] = []
  /// Edges from column L to column L+1, by L.
  private(set) var edges: [[Edge]] = []
  /// Edges that close a cycle (they point backwards and are not drawn).
  private(set) var cycleEdges = 0
  /// Long edges left out because placeholders would exceed the cap.
  private(set) var omittedEdges = 0
  /// Widest name in each column.
  private(set) var nameWidth: [Int] = []
  /// Each source node's lane in the channel to its right (edges from one node share it).
  private(set) var lane: [Int] = []
  /// Lanes used in the channel right of each column.
  private(set) var lanes: [Int] = []

  static let maxLanes = 6

  /// The whole layout at once (see `DAGLayoutBuilder` for one spread over frames).
  init(model: BoardModel, placeholderCap: Int = 20_000) {
    var builder = DAGLayoutBuilder(model: model, placeholderCap: placeholderCap)
    _ = builder.advance(model, budget: .max)
    self = builder.layout!
  }

  init(
    structureVersion: Int, nodes: [Node], layers: [[Int]], nodeOfOperation: [Int],
    edges: [[Edge]], cycleEdges: Int, omittedEdges: Int, nameWidth: [Int], lane: [Int],
    lanes: [Int]
  ) {
    self.structureVersion = structureVersion
    self.nodes = nodes
    self.layers = layers
    self.nodeOfOperation = nodeOfOperation
    self.edges = edges
    self.cycleEdges = cycleEdges
    self.omittedEdges = omittedEdges
    self.nameWidth = nameWidth
    self.lane = lane
    self.lanes = lanes
  }

  /// Width of a column's labels: glyph, space, name, cancelled mark.
  func columnWidth(_ layer: Int) -> Int { nameWidth[layer] + 4 }
  /// Width of the channel of edges to the right of a column.
  func channelWidth(_ layer: Int) -> Int { lanes[layer] + 4 }

  /// Left edge of each column.
  var columnX: [Int] {
    var x = 1
    return layers.indices.map { l in
      defer { x += columnWidth(l) + channelWidth(l) }
      return x
    }
  }
}
