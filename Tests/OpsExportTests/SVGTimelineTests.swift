import Foundation
import OpsEngine
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
    #expect(try y("network (max 3)") < y("download"))
    #expect(try y("download") < y("images (max ∞)"))
    #expect(try y("images (max ∞)") < y("decode"))
    // Two cancel marks (prefetch, warmCache), one error mark (analytics), a suspension, arrows.
    #expect(svg.components(separatedBy: "stroke=\"#c62828\" stroke-width=\"2\"").count - 1 == 2 + 1)
    #expect(svg.contains("<title>suspended</title>"))
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
