/// An axis-aligned box in the picture's coordinates (y grows downwards).
struct Box: Sendable, Equatable {
  var x0: Double
  var y0: Double
  var x1: Double
  var y1: Double

  /// Overlapping with some area: boxes that only touch do not intersect.
  func intersects(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
  func inflated(by d: Double) -> Box { Box(x0: x0 - d, y0: y0 - d, x1: x1 + d, y1: y1 + d) }
  func shifted(by dx: Double) -> Box { Box(x0: x0 + dx, y0: y0, x1: x1 + dx, y1: y1) }
}

/// An arrow of the timeline: from (x1, y1), straight down or up to the target's row when it must
/// turn (`elbow`), then along that row to (x2, y2), where its head is.
struct TimelineArrow: Sendable {
  let x1: Double
  let y1: Double
  let x2: Double
  let y2: Double
  let produced: Bool

  var elbow: Bool { x2 > x1 + 1 && abs(y2 - y1) > 0.05 }

  /// What it covers: each leg as a box widened by half the stroke (and half a pixel), and its head,
  /// a triangle `6 × stroke` long and `3 × stroke` either side of the line at (x2, y2), as the box
  /// around it. A leg that is not quite vertical or horizontal is covered by its bounding box.
  func covers(stroke: Double) -> [Box] {
    func leg(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Box {
      Box(x0: min(ax, bx), y0: min(ay, by), x1: max(ax, bx), y1: max(ay, by))
        .inflated(by: stroke / 2 + 0.5)
    }
    let (fromX, fromY) = elbow ? (x1, y2) : (x1, y1)
    let length = ((x2 - fromX) * (x2 - fromX) + (y2 - fromY) * (y2 - fromY)).squareRoot()
    let (ux, uy) = length > 0 ? ((x2 - fromX) / length, (y2 - fromY) / length) : (1.0, 0.0)
    let back = 6 * stroke
    let side = 3 * stroke
    let xs = [x2, x2 - back * ux - side * uy, x2 - back * ux + side * uy]
    let ys = [y2, y2 - back * uy + side * ux, y2 - back * uy - side * ux]
    let head = Box(x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!).inflated(by: 0.5)
    let legs = elbow ? [leg(x1, y1, x1, y2), leg(x1, y2, x2, y2)] : [leg(x1, y1, x2, y2)]
    return legs + [head]
  }
}

/// A mark on a row at a moment: a cross where an operation was cancelled, a diamond where it
/// finished with errors, a triangle where a warning was raised about it (or its queue).
struct TimelineMark: Sendable {
  enum Kind: Int, Sendable, Comparable {
    case cancel, error, warning
    static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
  }

  let kind: Kind
  /// The moment's x and the middle of the row it belongs on.
  let x: Double
  let y: Double
  /// Half its width and height, without its stroke.
  let r: Double
  /// Its tooltip: whose, what, exactly when.
  let title: String
  /// How far it was moved along its row to stay clear of arrows and of the other marks.
  var dx = 0.0

  /// What it covers once drawn at `x + dx`, its stroke included.
  var box: Box { box(at: dx) }
  func box(at dx: Double) -> Box {
    Box(x0: x + dx - r, y0: y - r, x1: x + dx + r, y1: y + r).inflated(by: kind.stroke)
  }
}

extension TimelineMark.Kind {
  /// How far its stroke reaches past `r`: the cross's lines are 2 wide and end at 45° (their
  /// corners reach 0.71 further), the diamond has none, the triangle's edge is 1 wide with round
  /// joins.
  var stroke: Double {
    switch self {
    case .cancel: 1
    case .error: 0
    case .warning: 0.5
    }
  }
}

enum MarkPlacement {
  /// Moves each mark along its row, as little as it can (later first, at equal distance), so that it
  /// covers no obstacle and no mark placed before it, with `gap` between. It stays within `minX`…
  /// `maxX` and within `maxShift` of its moment. A mark with no free place that close takes the one
  /// covering the fewest things. Marks are placed top to bottom, then left to right: the result does
  /// not depend on the order they come in.
  ///
  /// Each mark looks only at the obstacles within its reach: the marks are sorted by height and each
  /// obstacle finds those it may touch by a binary search, so tens of thousands of arrows cost little.
  static func place(
    _ marks: inout [TimelineMark], avoiding obstacles: [Box], minX: Double, maxX: Double,
    maxShift: Double, gap: Double = 1
  ) {
    guard !marks.isEmpty else { return }
    let reach = marks.map { m in
      Box(x0: m.x - maxShift, y0: m.y, x1: m.x + maxShift, y1: m.y).inflated(
        by: m.r + m.kind.stroke + gap + 0.5)
    }
    let byTop = marks.indices.sorted { (reach[$0].y0, $0) < (reach[$1].y0, $1) }
    let tallest = reach.map { $0.y1 - $0.y0 }.max() ?? 0
    var near = [[Int]](repeating: [], count: marks.count)
    for (k, o) in obstacles.enumerated() {
      // The first mark whose reach starts low enough to overlap the obstacle.
      var lo = 0
      var hi = byTop.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if reach[byTop[mid]].y0 <= o.y0 - tallest { lo = mid + 1 } else { hi = mid }
      }
      while lo < byTop.count, reach[byTop[lo]].y0 < o.y1 {
        if reach[byTop[lo]].intersects(o) { near[byTop[lo]].append(k) }
        lo += 1
      }
    }
    let order = marks.indices.sorted {
      (marks[$0].y, marks[$0].x, marks[$0].kind, $0) < (
        marks[$1].y, marks[$1].x, marks[$1].kind, $1
      )
    }
    var placed: [Box] = []
    for i in order {
      let nearPlaced = placed.filter { $0.intersects(reach[i]) }
      let nearObstacles = near[i].map { obstacles[$0] }
      func covered(_ dx: Double) -> Int {
        let b = marks[i].box(at: dx).inflated(by: gap)
        return nearObstacles.count { $0.intersects(b) } + nearPlaced.count { $0.intersects(b) }
      }
      func inside(_ dx: Double) -> Bool {
        let b = marks[i].box(at: dx)
        return b.x0 >= minX && b.x1 <= maxX
      }
      var candidates: [Double] = [0]
      var step = 1.0
      while step <= maxShift {
        candidates += [step, -step]
        step += 1
      }
      candidates = candidates.filter(inside)
      if candidates.isEmpty { candidates = [0] }
      let chosen =
        candidates.first { covered($0) == 0 }
        ?? candidates.min { (covered($0), abs($0)) < (covered($1), abs($1)) } ?? 0
      marks[i].dx = chosen
      placed.append(marks[i].box)
    }
  }
}
