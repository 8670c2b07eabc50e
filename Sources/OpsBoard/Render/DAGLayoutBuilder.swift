import OpsCells

/// Builds a `DAGLayout` a bounded amount of work at a time. While playing, operations keep being
/// added and the graph has to be laid out again; at 10,000 operations that is several frames' worth
/// of the 2 ms goal (docs/PERFORMANCE.md). The view advances a builder by a budget each frame and
/// shows the previous layout until the new one is complete. Paused, it builds at once (the same
/// code, with no budget).
///
/// A unit of work is one operation, edge or node visited. Two steps are not divided: indexing the
/// edges once they are read (a counting sort over them) and sorting a column.
struct DAGLayoutBuilder {
  typealias Node = DAGLayout.Node
  typealias Edge = DAGLayout.Edge
  typealias EdgeKind = DAGLayout.EdgeKind

  private enum Phase { case edges, depth, operationNodes, nodes, rows, widths, lanes, done }

  let structureVersion: Int
  /// The operations laid out: those in the model when the build began (later ones wait for the next).
  let count: Int
  private let placeholderCap: Int
  private var phase = Phase.edges
  /// The complete layout, once built.
  private(set) var layout: DAGLayout?
  /// Units of work done by the last `advance` (tests: the budget holds).
  private(set) var lastWork = 0

  // Edges: every edge once, in the order found; each node's incoming and outgoing edges are then
  // slices of two arrays sorted by node (compressed rows), not an array per node.
  private var next = 0
  private var edgeFrom: [Int] = []
  private var edgeTo: [Int] = []
  private var edgeKind: [EdgeKind] = []
  private var incomingEdges = CompressedRows(count: 0, keys: [])
  private var outgoingEdges = CompressedRows(count: 0, keys: [])
  // Depth (Kahn's algorithm).
  private var depth: [Int] = []
  private var indegree: [Int] = []
  private var placed: [Bool] = []
  private var queue: [Int] = []
  private var head = 0
  private var nextForced = 0
  // The layout's own arrays.
  private var nodes: [Node] = []
  private var layers: [[Int]] = []
  private var nodeOfOperation: [Int] = []
  private var edges: [[Edge]] = []
  private var cycleEdges = 0
  private var omittedEdges = 0
  private var placeholders = 0
  private var rowSum: [Int] = []
  private var inCount: [Int] = []
  private var nameWidth: [Int] = []
  private var lane: [Int] = []
  private var lanes: [Int] = []

  init(model: BoardModel, placeholderCap: Int = 20_000) {
    structureVersion = model.structureVersion
    count = model.operations.count
    self.placeholderCap = placeholderCap
  }

  /// Does about `budget` units of work; true once the layout is complete. `model` may have changed
  /// since the build began (operations added, edges added): it is read only for the first `count`
  /// operations, and the result is the graph as the builder saw it.
  mutating func advance(_ model: BoardModel, budget: Int) -> Bool {
    precondition(model.operations.count >= count, "the model lost operations during a layout")
    var work = 0
    while phase != .done && work < budget {
      switch phase {
      case .edges: readEdges(model, &work, budget)
      case .depth: placeInColumns(&work, budget)
      case .operationNodes: addOperationNodes(&work, budget)
      case .nodes: addNodes(&work, budget)
      case .rows, .widths, .lanes: eachColumn(model, &work, budget)
      case .done: break
      }
    }
    lastWork = work
    return phase == .done
  }

  private mutating func readEdges(_ model: BoardModel, _ work: inout Int, _ budget: Int) {
    let ops = model.operations
    let n = count
    // Each record read in place: a copy of it retains and releases each field, a large share of the
    // layout. Operations added since the build began are left out.
    while next < n && work < budget {
      let i = next
      ops.read(i) { op in
        for d in op.pointee.dependencies {
          guard let j = model.index(ofOperation: d), j < n else { continue }
          join(j, i, .dependency)
        }
        let parent = op.pointee.parent
        if let g = parent.flatMap(model.index(ofOperation:)), g < n { join(i, g, .child) }
        if parent == nil, let p = op.pointee.producedBy.flatMap(model.index(ofOperation:)), p < n {
          join(p, i, .produced)
        }
      }
      next += 1
      work += 1
    }
    guard next == n else { return }
    // Edge ids by target (incoming) and by source (outgoing), each in the order found.
    incomingEdges = CompressedRows(count: n, keys: edgeTo)
    outgoingEdges = CompressedRows(count: n, keys: edgeFrom)
    depth = Array(repeating: 0, count: n)
    indegree = (0..<n).map { incomingEdges.count(of: $0) }
    placed = Array(repeating: false, count: n)
    queue = (0..<n).filter { indegree[$0] == 0 }
    work += n + edgeFrom.count
    phase = .depth
  }

  private mutating func join(_ j: Int, _ i: Int, _ kind: EdgeKind) {
    edgeFrom.append(j)
    edgeTo.append(i)
    edgeKind.append(kind)
  }

  /// Depth by Kahn's algorithm. When only cycles are left, the earliest added operation still waiting
  /// is placed after what it waits for outside the cycle, and its other incoming edges close the cycle.
  private mutating func placeInColumns(_ work: inout Int, _ budget: Int) {
    let n = count
    while (head < queue.count || queue.count < n) && work < budget {
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
      work += 1 + outgoingEdges.count(of: u)
    }
    guard head == queue.count && queue.count == n else { return }
    let layerCount = (depth.max() ?? -1) + 1
    layers = Array(repeating: [], count: layerCount)
    nodeOfOperation = Array(repeating: 0, count: n)
    edges = Array(repeating: [], count: max(0, layerCount))
    next = 0
    phase = .operationNodes
  }

  /// A node for each operation, in its column: node `i` is operation `i` (placeholders come after).
  private mutating func addOperationNodes(_ work: inout Int, _ budget: Int) {
    while next < count && work < budget {
      let i = next
      nodeOfOperation[i] = i
      layers[depth[i]].append(i)
      nodes.append(Node(op: i, source: i, layer: depth[i]))
      next += 1
      work += 1
    }
    guard next == count else { return }
    next = 0
    phase = .nodes
  }

  /// Nodes for the operations, and placeholders on edges that skip columns.
  private mutating func addNodes(_ work: inout Int, _ budget: Int) {
    while next < count && work < budget {
      let v = next
      for e in incomingEdges[v] {
        let (u, kind) = (edgeFrom[e], edgeKind[e])
        let (du, dv) = (depth[u], depth[v])
        work += 1
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
          work += 1
        }
        edges[dv - 1].append(Edge(from: from, to: nodeOfOperation[v], kind: kind))
      }
      next += 1
      work += 1
    }
    guard next == count else { return }
    rowSum = Array(repeating: 0, count: nodes.count)
    inCount = Array(repeating: 0, count: nodes.count)
    next = 0
    phase = .rows
  }

  /// The three passes over columns (rows, name widths, lanes), a column at a time while the budget
  /// lasts; once every column is done, the next pass (or the layout) begins.
  private mutating func eachColumn(_ model: BoardModel, _ work: inout Int, _ budget: Int) {
    while next < layers.count && work < budget {
      switch phase {
      case .rows: work += orderRows(of: next)
      case .widths: work += measureNames(of: next, model)
      default: work += assignLanes(of: next)
      }
      next += 1
    }
    guard next >= layers.count else { return }
    next = 0
    switch phase {
    case .rows:
      rowSum = []
      inCount = []
      phase = .widths
    case .widths:
      lane = Array(repeating: 0, count: nodes.count)
      lanes = Array(repeating: 0, count: layers.count)
      phase = .lanes
    default:
      layout = DAGLayout(
        structureVersion: structureVersion, nodes: nodes, layers: layers,
        nodeOfOperation: nodeOfOperation, edges: edges, cycleEdges: cycleEdges,
        omittedEdges: omittedEdges, nameWidth: nameWidth, lane: lane, lanes: lanes)
      phase = .done
    }
  }

  /// Column `l` sorted by the mean row of what each node waits for (ties keep add order), summed
  /// from the edges into the column (every edge joins adjacent columns, and the column before is
  /// already ordered). The first column keeps its order. Returns the work done.
  private mutating func orderRows(of l: Int) -> Int {
    guard l > 0 else {
      for (i, id) in layers[0].enumerated() { nodes[id].row = i }
      return layers[0].count
    }
    for e in edges[l - 1] {
      rowSum[e.to] += nodes[e.from].row
      inCount[e.to] += 1
    }
    let keyed = layers[l].enumerated().map { (position, id) -> (Double, Int, Int) in
      let bary = inCount[id] == 0 ? Double(position) : Double(rowSum[id]) / Double(inCount[id])
      return (bary, position, id)
    }
    layers[l] = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { $0.2 }
    for (row, id) in layers[l].enumerated() { nodes[id].row = row }
    return layers[l].count + edges[l - 1].count
  }

  /// The widest name of column `l`, in cells.
  private mutating func measureNames(of l: Int, _ model: BoardModel) -> Int {
    let ops = model.operations
    nameWidth.append(
      layers[l].reduce(0) { w, id in
        guard let i = nodes[id].op else { return w }
        return max(w, ops.read(i) { CellWidth.columns(of: $0.pointee.name, upTo: 24) })
      })
    return layers[l].count
  }

  /// The lanes of the channel right of column `l`: the top source gets the rightmost lane, so edges
  /// running down never share a row segment with the edge leaving the node beside their target.
  private mutating func assignLanes(of l: Int) -> Int {
    let sources = Set(edges[l].map { $0.from }).sorted { nodes[$0].row < nodes[$1].row }
    let count = min(sources.count, DAGLayout.maxLanes)
    for (rank, s) in sources.enumerated() { lane[s] = count - 1 - rank % DAGLayout.maxLanes }
    lanes[l] = count
    return 1 + edges[l].count
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
