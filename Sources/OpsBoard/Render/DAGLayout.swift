import OpsCells

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
    // Every edge once, in the order found; each node's incoming and outgoing edges are then slices
    // of two arrays sorted by node (compressed rows), not an array per node.
    var edgeFrom: [Int] = []
    var edgeTo: [Int] = []
    var edgeKind: [EdgeKind] = []
    func join(_ j: Int, _ i: Int, _ kind: EdgeKind) {
      edgeFrom.append(j)
      edgeTo.append(i)
      edgeKind.append(kind)
    }
    // Each record read in place: copies of it (a retain and release of each field) were ~40% of the
    // layout's samples at 10,000 operations.
    for i in 0..<n {
      ops.read(i) { op in
        for d in op.pointee.dependencies {
          guard let j = model.index(ofOperation: d) else { continue }
          join(j, i, .dependency)
        }
        let parent = op.pointee.parent
        if let g = parent.flatMap(model.index(ofOperation:)) { join(i, g, .child) }
        if parent == nil, let p = op.pointee.producedBy.flatMap(model.index(ofOperation:)) {
          join(p, i, .produced)
        }
      }
    }
    // Edge ids by target (incoming) and by source (outgoing), each in the order found.
    let incomingEdges = CompressedRows(count: n, keys: edgeTo)
    let outgoingEdges = CompressedRows(count: n, keys: edgeFrom)
    // Depth by Kahn's algorithm. When only cycles are left, the earliest added operation still waiting
    // is placed after what it waits for outside the cycle, and its other incoming edges close the cycle.
    var depth = [Int](repeating: 0, count: n)
    var indegree = (0..<n).map { incomingEdges.count(of: $0) }
    var placed = [Bool](repeating: false, count: n)
    var queue = (0..<n).filter { indegree[$0] == 0 }
    var head = 0
    var nextForced = 0
    while head < queue.count || queue.count < n {
      if head == queue.count {
        while placed[nextForced] || indegree[nextForced] == 0 { nextForced += 1 }
        let v = nextForced
        var deepest = -1
        for e in incomingEdges[v] where placed[edgeFrom[e]] {
          deepest = max(deepest, depth[edgeFrom[e]])
        }
        depth[v] = deepest + 1
        indegree[v] = 0
        queue.append(v)
      }
      let u = queue[head]
      head += 1
      placed[u] = true
      for e in outgoingEdges[u] {
        let v = edgeTo[e]
        guard !placed[v] && indegree[v] > 0 else { continue }
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
    var placeholders = 0
    for v in 0..<n {
      for e in incomingEdges[v] {
        let (u, kind) = (edgeFrom[e], edgeKind[e])
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
          layers[layer].append(id)
          edges[layer - 1].append(Edge(from: from, to: id, kind: kind))
          from = id
          placeholders += 1
        }
        edges[dv - 1].append(Edge(from: from, to: nodeOfOperation[v], kind: kind))
      }
    }
    // Rows: each column sorted by the mean row of what it waits for (ties keep add order).
    for (i, id) in (layers.first ?? []).enumerated() { nodes[id].row = i }
    // The rows of what each node waits for, summed from the edges into its column (every edge joins
    // adjacent columns, and the column before is already ordered).
    var rowSum = [Int](repeating: 0, count: nodes.count)
    var inCount = [Int](repeating: 0, count: nodes.count)
    for l in layers.indices.dropFirst() {
      for e in edges[l - 1] {
        rowSum[e.to] += nodes[e.from].row
        inCount[e.to] += 1
      }
      let keyed = layers[l].enumerated().map { (position, id) -> (Double, Int, Int) in
        let bary =
          inCount[id] == 0 ? Double(position) : Double(rowSum[id]) / Double(inCount[id])
        return (bary, position, id)
      }
      layers[l] = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { $0.2 }
      for (row, id) in layers[l].enumerated() { nodes[id].row = row }
    }
    nameWidth = layers.map { ids in
      ids.reduce(0) { w, id in
        guard let i = nodes[id].op else { return w }
        return max(w, ops.read(i) { CellWidth.columns(of: $0.pointee.name, upTo: 24) })
      }
    }
    lane = Array(repeating: 0, count: nodes.count)
    lanes = Array(repeating: 0, count: layerCount)
    for l in 0..<layerCount {
      // The top source gets the rightmost lane: edges running down then never share a row segment
      // with the edge leaving the node beside their target.
      let sources = Set(edges[l].map { $0.from }).sorted { nodes[$0].row < nodes[$1].row }
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

/// Items grouped by a key in `0..<count`, each group in the order the items came: the items of key
/// `k` are `self[k]` (their positions in the original list). Two flat arrays instead of an array per
/// key.
struct CompressedRows {
  private var start: [Int]
  private var items: [Int]

  init(count: Int, keys: [Int]) {
    start = Array(repeating: 0, count: count + 1)
    for k in keys { start[k + 1] += 1 }
    for k in 0..<count { start[k + 1] += start[k] }
    items = Array(repeating: 0, count: keys.count)
    var next = start
    for (item, k) in keys.enumerated() {
      items[next[k]] = item
      next[k] += 1
    }
  }

  func count(of key: Int) -> Int { start[key + 1] - start[key] }
  subscript(key: Int) -> ArraySlice<Int> { items[start[key]..<start[key + 1]] }
}
