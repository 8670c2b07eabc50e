import OpsEngine

/// A timeline picture for slides and handouts (SVG 1.1): one row per operation, grouped under a band
/// per queue (its suspensions and limit changes drawn on it), coloured state segments on a time
/// axis, a cross where an operation was cancelled, a diamond where it finished with errors, arrows
/// from each dependency's finish to its dependent's start (dashed: produced), and a legend. Large
/// runs get thinner rows and a wider axis: the picture scrolls rather than shrinks.
public enum SVGTimeline {
  public static func render(_ source: ExportSource) -> String {
    String(decoding: renderBytes(source), as: UTF8.self)
  }

  /// The picture as UTF-8 bytes (tens of megabytes at 50,000 operations).
  public static func renderBytes(_ source: ExportSource) -> [UInt8] {
    let layout = Layout(source)
    var b = TextBuffer(capacity: source.projection.operations.count * 520 + 8_192)
    layout.header(&b)
    layout.axis(&b)
    layout.queues(&b)
    layout.rows(&b)
    layout.arrows(&b)
    b.add("</svg>\n")
    return b.bytes
  }

  struct Layout {
    let source: ExportSource
    let p: Projection
    let large: Bool
    let rowHeight: Double
    let fontSize: Double
    let labelWidth: Double
    let chartX: Double
    let chartWidth: Double
    let top = 96.0
    /// The top of each operation's row, by projection index (nil: its queue is unknown); of each
    /// queue's band, by queue index.
    let rowTop: [Double?]
    let bandTop: [Double]
    let height: Double
    let segments: [[StateSegment]]

    init(_ source: ExportSource) {
      self.source = source
      p = source.projection
      large = p.operations.count > 300
      rowHeight = large ? 12 : 20
      fontSize = large ? 9 : 12
      let longest = p.longestOperationName
      let chars = Double(min(max(longest, p.longestQueueName, 8), 40))
      labelWidth = chars * fontSize * 0.62 + 16
      chartX = labelWidth + 10
      // About 60 px a second, so a half-second operation of the stress run is still a bar.
      chartWidth = min(max(max(source.end, 0.001) * 60, 900), 24_000)
      segments = p.operations.map { $0.segments(until: source.end) }
      var y = top
      var rowTop = [Double?](repeating: nil, count: p.operations.count)
      var bandTop: [Double] = []
      let byQueue = p.operationsByQueue().byQueue
      for q in p.queues.indices {
        bandTop.append(y)
        y += rowHeight + 4
        for i in byQueue[q] {
          rowTop[i] = y
          y += rowHeight
        }
        y += 6
      }
      self.rowTop = rowTop
      self.bandTop = bandTop
      height = y + 16
    }

    /// Wide enough for the chart and for the legend's one line.
    var width: Double { max(chartX + chartWidth + 30, 1_200) }

    func x(_ t: Double) -> Double { chartX + t / max(source.end, 0.001) * chartWidth }

    // MARK: - Parts

    func header(_ b: inout TextBuffer) {
      b.add("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"")
      b.attr("width", width)
      b.attr("height", height)
      b.add(" viewBox=\"0 0 ")
      b.addDecimal1(width)
      b.add(" ")
      b.addDecimal1(height)
      b.add("\" font-family=\"Helvetica, Arial, sans-serif\"")
      b.attr("font-size", fontSize)
      b.add(">\n<title>")
      let title = source.title.isEmpty ? source.id : source.title
      b.addXML(title)
      b.add("</title>\n<defs>")
      for (id, color) in [("arrow", Palette.dependency), ("produced", Palette.produced)] {
        b.add(
          "<marker id=\"\(id)\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" ")
        b.add(
          "markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"\(color)\"/></marker>"
        )
      }
      b.add("</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n")
      b.add("<text x=\"12\" y=\"26\" font-size=\"18\" font-weight=\"bold\">")
      b.addXML(title)
      b.add("</text>\n<text x=\"12\" y=\"44\" fill=\"#546e7a\">")
      let warnings = p.warnings.count
      b.addXML(
        "\(source.id): \(p.operations.count) operations on \(p.queues.count) queues, "
          + "0 to \(fixed3(source.end))s, \(warnings) warning\(warnings == 1 ? "" : "s")")
      b.add("</text>\n")
      legend(&b)
    }

    private func legend(_ b: inout TextBuffer) {
      b.add("<g font-size=\"11\">\n")
      var lx = 12.0
      let ly = 58.0
      func label(_ text: String, at x: Double) {
        b.add("<text")
        b.attr("x", x)
        b.attr("y", ly + 9)
        b.add(">\(text)</text>\n")
      }
      for state in [OperationState.pending, .evaluatingConditions, .ready, .executing, .finishing] {
        let o = Outcome(state)
        b.add("<rect")
        b.attr("x", lx)
        b.attr("y", ly)
        b.add(
          " width=\"14\" height=\"10\" fill=\"\(o.fill)\" stroke=\"\(o.stroke)\" stroke-width=\"0.5\"/>"
        )
        label(o.label, at: lx + 18)
        lx += 24 + Double(o.label.count) * 6.2
      }
      cross(&b, lx + 7, ly + 5, 5)
      label("cancelled", at: lx + 18)
      lx += 84
      diamond(&b, lx + 7, ly + 5, 5)
      label("finished with errors", at: lx + 18)
      lx += 140
      path(&b, lx, ly + 5, lx + 26, ly + 5, Palette.dependency, "arrow", dashed: false)
      label("dependency finished → dependent started", at: lx + 32)
      lx += 270
      path(&b, lx, ly + 5, lx + 26, ly + 5, Palette.produced, "produced", dashed: true)
      label("produced", at: lx + 32)
      lx += 90
      b.add("<rect")
      b.attr("x", lx)
      b.attr("y", ly)
      b.add(" width=\"14\" height=\"10\" fill=\"#b0bec5\" fill-opacity=\"0.6\"/>")
      label("queue suspended", at: lx + 18)
      b.add("</g>\n")
    }

    /// Seconds along the top, with light lines down through every row.
    func axis(_ b: inout TextBuffer) {
      let duration = max(source.end, 0.001)
      let step = Self.tickStep(duration, pixels: chartWidth)
      var ticks: [Double] = []
      var k = 0
      while Double(k) * step <= duration + step * 1e-9 {
        ticks.append(Double(k) * step)
        k += 1
      }
      b.add("<g stroke=\"#eceff1\" stroke-width=\"1\">\n")
      for t in ticks {
        b.add("<line")
        b.attr("x1", x(t))
        b.attr("y1", top - 8)
        b.attr("x2", x(t))
        b.attr("y2", height - 16)
        b.add("/>\n")
      }
      b.add("</g>\n<g fill=\"#546e7a\" text-anchor=\"middle\" font-size=\"10\">\n")
      for t in ticks {
        b.add("<text")
        b.attr("x", x(t))
        b.attr("y", top - 12)
        b.add(">\(Self.seconds(t))s</text>\n")
      }
      b.add("</g>\n")
    }

    /// A round step (1, 2 or 5 × 10ⁿ seconds) giving ticks about 100 px apart.
    static func tickStep(_ duration: Double, pixels: Double) -> Double {
      let raw = duration / max(pixels / 100, 1)
      var magnitude = 1e-6
      while magnitude * 10 <= raw { magnitude *= 10 }
      for m in [1.0, 2, 5, 10] where magnitude * m >= raw { return magnitude * m }
      return magnitude * 10
    }

    /// Tick labels: as few decimals as the step needs.
    static func seconds(_ t: Double) -> String {
      let millis = Int((t * 1000).rounded())
      if millis % 1000 == 0 { return String(millis / 1000) }
      if millis % 100 == 0 { return String(millis / 1000) + "." + String(millis % 1000 / 100) }
      return fixed3(t)
    }

    func queues(_ b: inout TextBuffer) {
      for (q, queue) in p.queues.enumerated() {
        let y = bandTop[q]
        b.add("<g>\n<rect x=\"0\"")
        b.attr("y", y)
        b.attr("width", width)
        b.attr("height", rowHeight + 2)
        b.add(" fill=\"#eceff1\"/>\n")
        for (i, change) in queue.changes.enumerated() where change.suspended {
          let end = queue.changes[(i + 1)...].first { !$0.suspended }?.time ?? source.end
          b.add("<rect")
          b.attr("x", x(change.time))
          b.attr("y", y)
          b.attr("width", max(x(end) - x(change.time), 1))
          b.attr("height", rowHeight + 2)
          b.add(" fill=\"#b0bec5\" fill-opacity=\"0.6\"><title>suspended</title></rect>\n")
        }
        var previous = queue.changes.first?.maxConcurrent
        for change in queue.changes.dropFirst() where change.maxConcurrent != previous {
          previous = change.maxConcurrent
          b.add("<text")
          b.attr("x", x(change.time) + 3)
          b.attr("y", y + rowHeight - 2)
          b.add(" fill=\"#37474f\">max \(change.maxConcurrent.map(String.init) ?? "∞")</text>\n")
        }
        b.add("<text x=\"8\"")
        b.attr("y", y + rowHeight - 2)
        b.add(" font-weight=\"bold\">")
        b.addXML(DotExport.queueLabel(queue))
        b.add("</text>\n</g>\n")
      }
    }

    func rows(_ b: inout TextBuffer) {
      let maxChars = Int((labelWidth - 16) / (fontSize * 0.62))
      let bar = rowHeight - (large ? 3 : 6)
      for op in p.operations {
        guard let y = rowTop[op.index] else { continue }
        let barTop = y + (rowHeight - bar) / 2
        b.add("<g><title>")
        tooltip(op, into: &b)
        b.add("</title>\n")
        if op.index % 2 == 1 {
          b.add("<rect x=\"0\"")
          b.attr("y", y)
          b.attr("width", width)
          b.attr("height", rowHeight)
          b.add(" fill=\"#fafafa\"/>\n")
        }
        b.add("<text")
        b.attr("x", labelWidth)
        b.attr("y", y + rowHeight / 2 + fontSize * 0.35)
        b.add(" text-anchor=\"end\">")
        b.addXML(op.name.count > maxChars ? String(op.name.prefix(maxChars - 1)) + "…" : op.name)
        b.add("</text>\n")
        for s in segments[op.index] {
          let x0 = x(s.start)
          b.add("<rect")
          b.attr("x", x0)
          b.attr("y", barTop)
          b.attr("width", max(x(s.end) - x0, 0.5))
          b.attr("height", bar)
          b.add(" fill=\"\(Outcome(s.state).fill)\"/>\n")
        }
        if let t = op.cancelledAt {
          cross(&b, x(t), y + rowHeight / 2, bar / 2)
          b.add("\n")
        }
        if op.state == .finished, !op.errors.isEmpty, !op.cancelled, let t = op.finishedAt {
          diamond(&b, x(t), y + rowHeight / 2, bar / 2)
          b.add("\n")
        }
        b.add("</g>\n")
      }
    }

    /// Written straight into the picture: building it as strings first was a third of the SVG's
    /// writing time at 50,000 operations. XML escaping works character by character, so escaping
    /// the user's words piece by piece gives the same text as escaping the whole.
    private func tooltip(_ op: OperationInfo, into b: inout TextBuffer) {
      b.addXML(op.name)
      b.add(" on ")
      b.addXML(op.queue)
      b.add(": ")
      b.addXML(op.statusLine)
      for s in segments[op.index] {
        b.add("\n")
        b.add(Outcome(s.state).label)
        b.add(" ")
        b.addFixed3(s.start)
        b.add("–")
        b.addFixed3(s.end)
        b.add("s")
      }
      guard !op.errors.isEmpty else { return }
      b.add("\nerrors: ")
      for (i, error) in op.errors.enumerated() {
        if i > 0 { b.add("; ") }
        b.addXML(error)
      }
    }

    /// Dependency arrows (a dependency's finish → its dependent's start) and produced arrows (the
    /// moment of production → the produced operation's row), drawn over the bars, translucent.
    func arrows(_ b: inout TextBuffer) {
      b.add("<g fill=\"none\"")
      b.attr("stroke-width", large ? 0.6 : 1)
      b.attr("stroke-opacity", large ? 0.3 : 0.7)
      b.add(">\n")
      for op in p.operations {
        guard let top = rowTop[op.index] else { continue }
        let y2 = top + rowHeight / 2
        if let start = op.entered(.executing) {
          for d in op.dependencies {
            guard let j = p.index(ofOperation: d), let from = rowTop[j],
              let finished = p.operations[j].finishedAt
            else { continue }
            path(
              &b, x(finished), from + rowHeight / 2, x(start), y2, Palette.dependency, "arrow",
              dashed: false)
          }
        }
        if let by = op.producedBy, let j = p.index(ofOperation: by), let from = rowTop[j] {
          let t = op.history.first?.time ?? 0
          path(&b, x(t), from + rowHeight / 2, x(t), y2, Palette.produced, "produced", dashed: true)
        }
      }
      b.add("</g>\n")
    }

    /// An elbow: down (or up) from the source at the moment it finished, then along the target's
    /// row, over the time it spent waiting, into the moment it started.
    private func path(
      _ b: inout TextBuffer, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
      _ color: String, _ marker: String, dashed: Bool
    ) {
      b.add("<path d=\"M")
      b.point(x1, y1)
      if x2 > x1 + 1 && abs(y2 - y1) > 0.05 {
        b.add(" L")
        b.point(x1, y2)
      }
      b.add(" L")
      b.point(x2, y2)
      b.add("\" stroke=\"\(color)\"" + (dashed ? " stroke-dasharray=\"4 2\"" : ""))
      b.add(" marker-end=\"url(#\(marker))\"/>\n")
    }

    private func cross(_ b: inout TextBuffer, _ cx: Double, _ cy: Double, _ r: Double) {
      b.add("<path d=\"M")
      b.point(cx - r, cy - r)
      b.add(" L")
      b.point(cx + r, cy + r)
      b.add(" M")
      b.point(cx - r, cy + r)
      b.add(" L")
      b.point(cx + r, cy - r)
      b.add("\" stroke=\"\(Palette.cancel)\" stroke-width=\"2\"/>")
    }

    private func diamond(_ b: inout TextBuffer, _ cx: Double, _ cy: Double, _ r: Double) {
      b.add("<path d=\"M")
      b.point(cx, cy - r)
      b.add(" L")
      b.point(cx + r, cy)
      b.add(" L")
      b.point(cx, cy + r)
      b.add(" L")
      b.point(cx - r, cy)
      b.add(" z\" fill=\"\(Outcome.failed.stroke)\"/>")
    }
  }
}

extension TextBuffer {
  /// ` name="value"` with the value to one decimal.
  fileprivate mutating func attr(_ name: String, _ value: Double) {
    add(" ")
    add(name)
    add("=\"")
    addDecimal1(value)
    add("\"")
  }

  /// `x,y` to one decimal each.
  fileprivate mutating func point(_ x: Double, _ y: Double) {
    addDecimal1(x)
    add(",")
    addDecimal1(y)
  }
}
