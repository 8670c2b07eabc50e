import Foundation
import OpsEngine
import OpsEvents
import OpsScenarios
import Testing

@testable import OpsExport

@Suite struct SVGTimelineTests {
  /// A real renderer (librsvg) must parse the picture and turn it into a PNG.
  @Test(arguments: ["tour", "stress", "groups-and-produced", "deadlock"])
  func convertsToPNGWithRsvg(_ name: String) throws {
    let rsvg = try tool("rsvg-convert")
    let text = SVGTimeline.render(try exportSource(name))
    let r = try run(rsvg, ["--format=png"], input: text)
    #expect(r.status == 0, "rsvg-convert failed for \(name): \(r.err)")
    #expect(r.out.starts(with: [0x89, 0x50, 0x4E, 0x47]))
  }

  @Test func oneRowPerOperationGroupedByQueue() throws {
    let source = try exportSource("tour")
    let svg = SVGTimeline.render(source)
    for op in source.projection.operations {
      #expect(svg.contains(">\(op.name)</text>"), "no row for \(op.name)")
    }
    // Queue bands in order, each above its operations.
    func y(_ text: String) throws -> Double {
      let line = try #require(svg.split(separator: "\n").first { $0.hasSuffix(">\(text)</text>") })
      return try #require(line.firstMatch(of: /\sy="([0-9.]+)"/).flatMap { Double($0.1) })
    }
    #expect(try y("network") < y("download"))
    #expect(try y("download") < y("images"))
    #expect(try y("images") < y("decode"))
    // Two cancel marks (prefetch, warmCache), one error mark (analytics), a suspension, arrows.
    #expect(svg.components(separatedBy: "stroke=\"#c62828\" stroke-width=\"2\"").count - 1 == 2 + 1)
    #expect(svg.contains("<title>suspended from 6.000s to 10.000s</title>"))
    #expect(svg.contains("marker-end=\"url(#arrow)\""))
  }

  @Test func stressStaysReadable() throws {
    let source = try exportSource("stress")
    let svg = SVGTimeline.render(source)
    // Thin rows, but every operation has one, and the axis is wide enough for half-second bars.
    let width = try #require(
      svg.firstMatch(of: /width="([0-9.]+)"/).flatMap { Double($0.1) })
    #expect(width >= 2_000)
    #expect(svg.components(separatedBy: "text-anchor=\"end\"").count - 1 == 1_200)
  }

  @Test func hostileNamesAreEscapedAndParse() throws {
    let rsvg = try tool("rsvg-convert")
    let svg = SVGTimeline.render(exportSource(hostileScenario()))
    #expect(svg.contains("a&quot;b&lt;c&gt;&amp;d|e;f#g`h\\i{j}[k]"))
    #expect(!svg.contains("\u{1}"))
    let r = try run(rsvg, ["--format=png"], input: svg)
    #expect(r.status == 0, "\(r.err)")
  }
}

/// What the picture draws, read back from its text: the arrows (each a polyline with its head at its
/// end) and the marks, outside the legend.
private struct Drawn {
  struct Rect {
    var x0, y0, x1, y1: Double
    func overlaps(_ o: Rect) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
    var midX: Double { (x0 + x1) / 2 }
    var midY: Double { (y0 + y1) / 2 }
  }
  struct Mark {
    let kind: String
    let rect: Rect
    let title: String
  }

  var arrows: [[(x: Double, y: Double)]] = []
  var arrowStroke = 1.0
  var marks: [Mark] = []
  /// x of each tick of the axis by its label (`4s`).
  var ticks: [String: Double] = [:]

  static func points(_ d: Substring) -> [(x: Double, y: Double)] {
    d.matches(of: /(-?[0-9.]+),(-?[0-9.]+)/).map { (Double($0.1)!, Double($0.2)!) }
  }

  init(_ svg: String) {
    for line in svg.split(separator: "\n") {
      if let m = line.firstMatch(of: /<g fill="none" stroke-width="([0-9.]+)"/) {
        arrowStroke = Double(m.1)!
      }
      if let m = line.wholeMatch(of: /<text x="([0-9.]+)" y="[0-9.]+">([0-9.]+s)<\/text>/) {
        ticks[String(m.2)] = Double(m.1)!
      }
      // One element per path: a mark's line holds its tooltip and its path(s).
      let title = line.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.1) } ?? ""
      for path in line.matches(of: /<path ([^>]*)\/>/) {
        let attributes = path.1
        guard let d = attributes.firstMatch(of: /d="([^"]*)"/)?.1 else { continue }
        let pts = Self.points(d)
        guard !pts.isEmpty, pts.allSatisfy({ $0.y > 80 }) else { continue }  // the legend
        if attributes.contains("marker-end=") {
          arrows.append(pts)
          continue
        }
        let kind: String
        let stroke: Double
        if attributes.contains("stroke=\"#c62828\" stroke-width=\"2\"") {
          (kind, stroke) = ("cancel", 1)  // 2 wide, ends at 45°: 0.71 past its points
        } else if attributes.contains("fill=\"#d84315\"") {
          (kind, stroke) = ("error", 0)
        } else if attributes.contains("class=\"warning-mark\"") {
          (kind, stroke) = ("warning", 0.5)
        } else {
          continue
        }
        let xs = pts.map(\.x)
        let ys = pts.map(\.y)
        marks.append(
          Mark(
            kind: kind,
            rect: Rect(
              x0: xs.min()! - stroke, y0: ys.min()! - stroke, x1: xs.max()! + stroke,
              y1: ys.max()! + stroke), title: title))
      }
    }
  }

  /// What an arrow covers: each leg as wide as its stroke, and its head (SVG marker units are the
  /// stroke width: the head is 6 long and 3 either side of the line's end).
  func cover(_ arrow: [(x: Double, y: Double)]) -> [Rect] {
    let s = arrowStroke
    var out: [Rect] = []
    for (a, b) in zip(arrow, arrow.dropFirst()) {
      out.append(
        Rect(
          x0: min(a.x, b.x) - s / 2, y0: min(a.y, b.y) - s / 2, x1: max(a.x, b.x) + s / 2,
          y1: max(a.y, b.y) + s / 2))
    }
    let tip = arrow[arrow.count - 1]
    let from = arrow[arrow.count - 2]
    let length = ((tip.x - from.x) * (tip.x - from.x) + (tip.y - from.y) * (tip.y - from.y))
      .squareRoot()
    let (ux, uy) = ((tip.x - from.x) / length, (tip.y - from.y) / length)
    let corners = [
      (tip.x, tip.y), (tip.x - 6 * s * ux - 3 * s * uy, tip.y - 6 * s * uy + 3 * s * ux),
      (tip.x - 6 * s * ux + 3 * s * uy, tip.y - 6 * s * uy - 3 * s * ux),
    ]
    out.append(
      Rect(
        x0: corners.map(\.0).min()!, y0: corners.map(\.1).min()!, x1: corners.map(\.0).max()!,
        y1: corners.map(\.1).max()!))
    return out
  }

  /// Every mark that covers part of an arrow or of another mark.
  func overlaps() -> [String] {
    var out: [String] = []
    for (i, m) in marks.enumerated() {
      for arrow in arrows where cover(arrow).contains(where: { $0.overlaps(m.rect) }) {
        out.append("\(m.kind) mark (\(m.title)) on the arrow \(arrow)")
      }
      for other in marks[(i + 1)...] where other.rect.overlaps(m.rect) {
        out.append("\(m.kind) mark (\(m.title)) on the \(other.kind) mark (\(other.title))")
      }
    }
    return out
  }
}

@Suite struct SVGTimelineMarkTests {
  /// The rehearsal's complaint: prefetch's cross sat on the arrow from download to decode (both at
  /// 4 s), and warmCache's on the one from analytics to purge.
  @Test func tourMarksCoverNoArrowAndNoOtherMark() throws {
    let drawn = Drawn(SVGTimeline.render(try exportSource("tour")))
    #expect(drawn.arrows.count == 7)
    #expect(drawn.marks.map(\.kind).sorted() == ["cancel", "cancel", "error", "warning"])
    #expect(drawn.overlaps() == [])
    // Moved as little as needed: prefetch's cross stays on the half second between its cancel and
    // the end of its bar.
    let x4 = try #require(drawn.ticks["4s"])
    let x6 = try #require(drawn.ticks["6s"])
    let cross = try #require(drawn.marks.first { $0.title.hasPrefix("prefetch:") })
    #expect(cross.rect.midX > x4 && cross.rect.midX < x4 + (x6 - x4) / 4)
  }

  @Test func marksAtTheMomentOfManyArrowsStayClearOfThemAndOfEachOther() throws {
    let drawn = Drawn(SVGTimeline.render(exportSource(HandoutScenarios.crowded)))
    // x1, x2, x3 cancelled; bad failed; d1 and d3 ran after it; x3 ignored its cancel.
    #expect(drawn.marks.filter { $0.kind == "cancel" }.count == 3)
    #expect(drawn.marks.filter { $0.kind == "error" }.count == 1)
    #expect(drawn.marks.filter { $0.kind == "warning" }.count == 3)
    #expect(drawn.arrows.count == 4)
    #expect(drawn.overlaps() == [])
    let x2 = try #require(drawn.ticks["2s"])
    for m in drawn.marks where !m.title.contains("ignoresCancellation") {
      #expect(abs(m.rect.midX - x2) < 40, "\(m.title) moved far from 2 s")
    }
  }

  /// The rehearsal's complaint: the warning had no mark.
  @Test func warningsHaveAMarkWithTheirMessageAndALegendEntry() throws {
    let svg = SVGTimeline.render(try exportSource("tour"))
    let drawn = Drawn(svg)
    let warning = try #require(drawn.marks.first { $0.kind == "warning" })
    #expect(
      warning.title.hasPrefix("purge: ⚠ ranAfterFailedDependency at 7.000s: purge ran although"))
    // On purge's row: the row's label is at the same height.
    let row = try #require(
      svg.split(separator: "\n").first { $0.hasSuffix(" text-anchor=\"end\">purge</text>") })
    let labelY = try #require(row.firstMatch(of: /\sy="([0-9.]+)"/).flatMap { Double($0.1) })
    #expect(abs(warning.rect.midY - labelY) < 10)
    #expect(svg.contains(">warning</text>"))
    #expect(svg.contains("<path class=\"warning-mark\" d=\"M"))
    // A warning about a queue goes on its band.
    let queues = Drawn(SVGTimeline.render(exportSource(HandoutScenarios.queueHistory)))
    let idle = try #require(queues.marks.first { $0.title.contains("suspendedQueueIdle") })
    #expect(idle.title.hasPrefix("q: ⚠ suspendedQueueIdle at "))
    #expect(queues.overlaps() == [])
  }

  @Test func marksSayWhatHappenedInTheirTooltips() throws {
    let svg = SVGTimeline.render(try exportSource("tour"))
    #expect(svg.contains("<title>prefetch: cancelled at 4.000s, stopped at 4.500s</title>"))
    #expect(
      svg.contains("<title>analytics: finished with errors at 7.000s: quota exceeded</title>"))
    // The row's tooltip too.
    #expect(svg.contains("<g><title>prefetch on network: cancelled at 4.000s, stopped at 4.500s\n"))
    let early = SVGTimeline.render(try exportSource("tour", until: 4.2))
    #expect(early.contains("<title>prefetch: executing since 0.000s, cancelled at 4.000s</title>"))
  }

  /// The rehearsal's complaint: the band said "network (max 3)" though the limit was 2 until 12 s.
  @Test func queueBandsShowTheLimitFromTheStartAndEachChange() throws {
    let svg = SVGTimeline.render(try exportSource("tour"))
    #expect(
      svg.contains(
        "<g><title>network: max 2, 3 from 12.000s; suspended from 6.000s to 10.000s</title>"))
    #expect(!svg.contains("(max 3)"))
    let band = svg.split(separator: "\n").map(String.init)
    let texts = band.compactMap { line -> (Double, String)? in
      guard
        let m = line.wholeMatch(
          of: /<text x="([0-9.]+)" y="[0-9.]+" fill="#37474f">([^<]*)<\/text>/)
      else { return nil }
      return (Double(m.1)!, String(m.2))
    }
    let x0 = try #require(Drawn(svg).ticks["0s"])
    let x12 = try #require(Drawn(svg).ticks["12s"])
    let x6 = try #require(Drawn(svg).ticks["6s"])
    #expect(texts.contains { $0.1 == "max 2" && abs($0.0 - x0 - 3) < 0.2 })
    #expect(texts.contains { $0.1 == "max 3" && abs($0.0 - x12 - 3) < 0.2 })
    #expect(texts.contains { $0.1 == "suspended" && abs($0.0 - x6 - 3) < 0.2 })
    #expect(svg.contains("<title>suspended from 6.000s to 10.000s</title>"))
    // --until 8: still suspended then, and the limit not raised yet.
    let early = SVGTimeline.render(try exportSource("tour", until: 8))
    #expect(early.contains("<g><title>network: max 2; suspended from 6.000s</title>"))
    #expect(!early.contains(">max 3</text>"))
  }
}

/// The SVG writes its tooltip times straight into the picture: they must read exactly as the rest of
/// opsview writes seconds (`fixed3`), rounding and sign included.
@Suite struct TextBufferSecondsTests {
  @Test(arguments: [
    0, 0.0004, 0.0005, 0.9995, 1.5, 12.25, 59.999_6, 1_000_000.000_4, -0.0004, -0.0006, -3.2,
    0.1 + 0.2,
  ])
  func threeDecimalsReadAsFixed3(_ seconds: Double) {
    var b = TextBuffer()
    b.addFixed3(seconds)
    #expect(String(decoding: b.bytes, as: UTF8.self) == fixed3(seconds))
  }
}
