/// The whole dependency graph laid out left to right: each operation in the column of its dependency
/// depth (longest chain of dependencies before it), rows ordered to put operations near what they
/// wait for. A group's children are placed before the group (it waits for them) and a produced
/// operation after its producer. Edges that skip columns pass through placeholder nodes so every edge
/// joins adjacent columns. Computed once per change of structure (operations or edges added), never
/// per frame.
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

  init(model: BoardModel, placeholderCap: Int = 20_000) {
    structureVersion = model.structureVersion
    let ops = model.operations
    let n = ops.count
    var preds = [[Int]](repeating: [], count: n)
    var kinds = [[EdgeKind]](repeating: [], count: n)
    var succs = [[Int]](repeating: [], count: n)
    func join(_ j: Int, _ i: Int, _ kind: EdgeKind) {
      preds[i].append(j)
      kinds[i].append(kind)
      succs[j].append(i)
    }
    for (i, op) in ops.enumerated() {
      for d in op.dependencies {
        guard let j = model.index(ofOperation: d) else { continue }
        join(j, i, .dependency)
      }
      if let g = op.parent.flatMap(model.index(ofOperation:)) { join(i, g, .child) }
      if let p = op.producedBy.flatMap(model.index(ofOperation:)), op.parent == nil {
        join(p, i, .produced)
      }
    }
    // Depth by Kahn's algorithm. When only cycles are left, the earliest added operation still waiting
    // is placed after what it waits for outside the cycle, and its other incoming edges close the cycle.
    var depth = [Int](repeating: 0, count: n)
    var indegree = preds.map(\.count)
    var placed = [Bool](repeating: false, count: n)
    var queue = (0..<n).filter { indegree[$0] == 0 }
    var head = 0
    var nextForced = 0
    while head < queue.count || queue.count < n {
      if head == queue.count {
        while placed[nextForced] || indegree[nextForced] == 0 { nextForced += 1 }
        let v = nextForced
        depth[v] = (preds[v].filter { placed[$0] }.map { depth[$0] }.max() ?? -1) + 1
        indegree[v] = 0
        queue.append(v)
      }
      let u = queue[head]
      head += 1
      placed[u] = true
      for v in succs[u] where !placed[v] && indegree[v] > 0 {
        depth[v] = max(depth[v], depth[u] + 1)
        indegree[v] -= 1
        if indegree[v] == 0 { queue.append(v) }
      }
    }
    let layerCount = (depth.max() ?? -1) + 1
    layers = Array(repeating: [], count: layerCount)
    nodeOfOperation = Array(repeating: 0, count: n)
    for i in 0..<n {
      nodeOfOperation[i] = nodes.count
      layers[depth[i]].append(nodes.count)
      nodes.append(Node(op: i, source: i, layer: depth[i]))
    }
    edges = Array(repeating: [], count: max(0, layerCount))
    var incoming = [[Int]](repeating: [], count: nodes.count)
    var placeholders = 0
    for v in 0..<n {
      for (u, kind) in zip(preds[v], kinds[v]) {
        let (du, dv) = (depth[u], depth[v])
        guard du < dv else {
          cycleEdges += 1
          continue
        }
        if dv - du - 1 + placeholders > placeholderCap {
          omittedEdges += 1
          continue
        }
        var from = nodeOfOperation[u]
        for layer in (du + 1)..<dv {
          let id = nodes.count
          nodes.append(Node(op: nil, source: u, layer: layer, kind: kind))
          incoming.append([])
          layers[layer].append(id)
          edges[layer - 1].append(Edge(from: from, to: id, kind: kind))
          incoming[id].append(from)
          from = id
          placeholders += 1
        }
        edges[dv - 1].append(Edge(from: from, to: nodeOfOperation[v], kind: kind))
        incoming[nodeOfOperation[v]].append(from)
      }
    }
    // Rows: each column sorted by the mean row of what it waits for (ties keep add order).
    for (i, id) in (layers.first ?? []).enumerated() { nodes[id].row = i }
    for l in layers.indices.dropFirst() {
      let keyed = layers[l].enumerated().map { (position, id) -> (Double, Int, Int) in
        let ins = incoming[id]
        let bary =
          ins.isEmpty
          ? Double(position) : Double(ins.reduce(0) { $0 + nodes[$1].row }) / Double(ins.count)
        return (bary, position, id)
      }
      layers[l] = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
      for (row, id) in layers[l].enumerated() { nodes[id].row = row }
    }
    nameWidth = layers.map { ids in
      ids.reduce(0) { w, id in nodes[id].op.map { max(w, min(ops[$0].name.count, 24)) } ?? w }
    }
    lane = Array(repeating: 0, count: nodes.count)
    lanes = Array(repeating: 0, count: layerCount)
    for l in 0..<layerCount {
      // The top source gets the rightmost lane: edges running down then never share a row segment
      // with the edge leaving the node beside their target.
      let sources = Set(edges[l].map(\.from)).sorted { nodes[$0].row < nodes[$1].row }
      let count = min(sources.count, Self.maxLanes)
      for (rank, s) in sources.enumerated() { lane[s] = count - 1 - rank % Self.maxLanes }
      lanes[l] = count
    }
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
