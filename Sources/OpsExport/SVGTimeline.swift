import OpsEngine
import OpsEvents

/// A timeline picture for slides and handouts (SVG 1.1): one row per operation, grouped under a band
/// per queue (its limit from the start and each change, its suspensions shaded, on the time axis),
/// coloured state segments on a time axis, a cross where an operation was cancelled (its bar ends
/// where its work stopped), a diamond where it finished with errors, a triangle where a warning was
/// raised, arrows from each dependency's finish to its dependent's start (dashed: produced), and a
/// legend. Marks are drawn over the arrows and moved a little along their row where one would cover
/// an arrow or another mark; each has a tooltip with the exact time. Large runs get thinner rows and
/// a wider axis: the picture scrolls rather than shrinks.
public enum SVGTimeline {
  public static func render(_ source: ExportSource) -> String {
    String(decoding: renderBytes(source), as: UTF8.self)
  }

  /// The picture as UTF-8 bytes (tens of megabytes at 50,000 operations).
  public static func renderBytes(_ source: ExportSource) -> [UInt8] {
    renderBytes(source, inline: false)
  }

  /// `inline`: for the HTML handout, an `<svg>` element to place in a page (no XML declaration and
  /// no namespace attribute, which HTML implies), each operation's row marked with its add-order
  /// index (`data-row`, never a name) and the time axis's ends given (`data-x0`, `data-x1`) so the page can select rows and draw its clock.
  static func renderBytes(_ source: ExportSource, inline: Bool) -> [UInt8] {
    var layout = Layout(source)
    layout.inline = inline
    var b = TextBuffer(capacity: source.projection.operations.count * 520 + 8_192)
    let notes = layout.bandNotes()
    let arrows = layout.arrowPaths()
    let marks = layout.placedMarks(arrows: arrows, notes: notes)
    layout.header(&b)
    layout.axis(&b)
    layout.queues(&b, notes: notes)
    layout.rows(&b)
    layout.arrows(&b, arrows)
    layout.marks(&b, marks)
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
    var inline = false

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
    var width: Double { max(chartX + chartWidth + 30, Self.legendEnd + 16) }

    func x(_ t: Double) -> Double { chartX + t / max(source.end, 0.001) * chartWidth }

    // MARK: - Parts

    func header(_ b: inout TextBuffer) {
      if inline {
        b.add("<svg role=\"img\" aria-labelledby=\"h-tl\"")
        b.attr("data-x0", chartX)
        b.attr("data-x1", chartX + chartWidth)
        b.attr("data-top", top)
        b.attr("data-bottom", height - 16)
      } else {
        b.add(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"")
      }
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
      for state in Self.legendStates {
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
      lx += Self.legendAfterStates[0]
      diamond(&b, lx + 7, ly + 5, 5)
      label("finished with errors", at: lx + 18)
      lx += Self.legendAfterStates[1]
      warningMark(&b, lx + 7, ly + 5, 5)
      label("warning", at: lx + 18)
      lx += Self.legendAfterStates[2]
      path(
        &b, TimelineArrow(x1: lx, y1: ly + 5, x2: lx + 26, y2: ly + 5, produced: false),
        Palette.dependency, "arrow", dashed: false)
      label("dependency finished → dependent started", at: lx + 32)
      lx += Self.legendAfterStates[3]
      path(
        &b, TimelineArrow(x1: lx, y1: ly + 5, x2: lx + 26, y2: ly + 5, produced: true),
        Palette.produced, "produced", dashed: true)
      label("produced", at: lx + 32)
      lx += Self.legendAfterStates[4]
      b.add("<rect")
      b.attr("x", lx)
      b.attr("y", ly)
      b.add(" width=\"14\" height=\"10\" fill=\"#b0bec5\" fill-opacity=\"0.6\"/>")
      label("queue suspended", at: lx + 18)
      b.add("</g>\n")
    }

    static let legendStates: [OperationState] = [
      .pending, .evaluatingConditions, .ready, .executing, .finishing,
    ]
    /// The room each legend entry after the states takes, in order.
    static let legendAfterStates: [Double] = [84, 140, 74, 270, 90]
    /// Where the legend's line ends: "queue suspended" at 11 px is about 93 px.
    static let legendEnd: Double = {
      var lx = 12.0
      for state in legendStates { lx += 24 + Double(Outcome(state).label.count) * 6.2 }
      return lx + legendAfterStates.reduce(0, +) + 18 + 96
    }()

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

    /// A text on a queue's band: its limit from a moment on, or the word for a suspension.
    struct BandNote {
      let queue: Int
      let x: Double
      let text: String
      /// Where a changed limit took effect: a short line down the band.
      let tick: Double?
      /// What the text covers (an estimate from its length: no font metrics here).
      let box: Box
    }

    /// Each band's texts along the time axis: the limit the queue had from the start and each
    /// change, and "suspended" inside each suspension wide enough for the word. A text never
    /// overlaps the one before it: it moves right, and a "suspended" that would leave its
    /// suspension is left out (the shading and the tooltip still say it).
    func bandNotes() -> [BandNote] {
      var out: [BandNote] = []
      let charWidth = fontSize * 0.6
      for (q, queue) in p.queues.enumerated() {
        var wanted: [(x: Double, text: String, until: Double?, tick: Double?)] = []
        for (i, run) in queue.limitRuns.enumerated() {
          let at = x(run.time)
          wanted.append((at + 3, "max " + OpsEvents.limitText(run.limit), nil, i == 0 ? nil : at))
        }
        for s in queue.suspensions {
          wanted.append((x(s.from) + 3, "suspended", x(s.to ?? source.end), nil))
        }
        wanted.sort { $0.x < $1.x }
        var free = -Double.infinity
        for w in wanted {
          let left = max(w.x, free)
          let right = left + Double(w.text.count) * charWidth
          if let until = w.until, right + 3 > until { continue }
          let y = bandTop[q]
          let from = min(left, (w.tick ?? left) - 1)
          out.append(
            BandNote(
              queue: q, x: left, text: w.text, tick: w.tick,
              box: Box(x0: from, y0: y + 2, x1: right, y1: y + rowHeight)))
          free = right + 6
        }
      }
      return out
    }

    func queues(_ b: inout TextBuffer, notes: [BandNote]) {
      var next = 0
      for (q, queue) in p.queues.enumerated() {
        let y = bandTop[q]
        b.add("<g><title>")
        b.addXML(queue.name)
        b.add(": ")
        b.addXML(queue.historyText)
        b.add("</title>\n<rect x=\"0\"")
        b.attr("y", y)
        b.attr("width", width)
        b.attr("height", rowHeight + 2)
        b.add(" fill=\"#eceff1\"/>\n")
        for s in queue.suspensions {
          let end = s.to ?? source.end
          b.add("<rect")
          b.attr("x", x(s.from))
          b.attr("y", y)
          b.attr("width", max(x(end) - x(s.from), 1))
          b.attr("height", rowHeight + 2)
          b.add(" fill=\"#b0bec5\" fill-opacity=\"0.6\"><title>suspended from ")
          b.addFixed3(s.from)
          b.add("s")
          if let to = s.to {
            b.add(" to ")
            b.addFixed3(to)
            b.add("s")
          }
          b.add("</title></rect>\n")
        }
        while next < notes.count, notes[next].queue == q {
          if let tick = notes[next].tick {
            b.add("<path d=\"M")
            b.point(tick, y + 2)
            b.add(" L")
            b.point(tick, y + rowHeight)
            b.add("\" stroke=\"#37474f\" stroke-width=\"1\"/>\n")
          }
          b.add("<text")
          b.attr("x", notes[next].x)
          b.attr("y", y + rowHeight - 2)
          b.add(" fill=\"#37474f\">")
          b.addXML(notes[next].text)
          b.add("</text>\n")
          next += 1
        }
        b.add("<text x=\"8\"")
        b.attr("y", y + rowHeight - 2)
        b.add(" font-weight=\"bold\">")
        b.addXML(queue.name)
        b.add("</text>\n</g>\n")
      }
    }

    func rows(_ b: inout TextBuffer) {
      let maxChars = Int((labelWidth - 16) / (fontSize * 0.62))
      let bar = rowHeight - (large ? 3 : 6)
      for op in p.operations {
        guard let y = rowTop[op.index] else { continue }
        let barTop = y + (rowHeight - bar) / 2
        b.add(inline ? "<g data-row=\"\(op.index)\"><title>" : "<g><title>")
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
    /// moment of production → the produced operation's row), in the order they are drawn.
    func arrowPaths() -> [TimelineArrow] {
      var out: [TimelineArrow] = []
      for op in p.operations {
        guard let top = rowTop[op.index] else { continue }
        let y2 = top + rowHeight / 2
        if let start = op.entered(.executing) {
          for d in op.dependencies {
            guard let j = p.index(ofOperation: d), let from = rowTop[j],
              let finished = p.operations[j].finishedAt
            else { continue }
            out.append(
              TimelineArrow(
                x1: x(finished), y1: from + rowHeight / 2, x2: x(start), y2: y2, produced: false))
          }
        }
        if let by = op.producedBy, let j = p.index(ofOperation: by), let from = rowTop[j] {
          let t = op.history.first?.time ?? 0
          out.append(
            TimelineArrow(x1: x(t), y1: from + rowHeight / 2, x2: x(t), y2: y2, produced: true))
        }
      }
      return out
    }

    /// The arrows, drawn over the bars, translucent.
    func arrows(_ b: inout TextBuffer, _ arrows: [TimelineArrow]) {
      b.add("<g fill=\"none\"")
      b.attr("stroke-width", arrowStroke)
      b.attr("stroke-opacity", large ? 0.3 : 0.7)
      b.add(">\n")
      for a in arrows {
        if a.produced {
          path(&b, a, Palette.produced, "produced", dashed: true)
        } else {
          path(&b, a, Palette.dependency, "arrow", dashed: false)
        }
      }
      b.add("</g>\n")
    }

    var arrowStroke: Double { large ? 0.6 : 1 }

    /// The marks with where they go: a cross where each operation was cancelled, a diamond where
    /// one finished with errors, a triangle where a warning was raised (on its operation's row, or
    /// on its queue's band), each moved along its row as little as needed to cover no arrow (its
    /// head included), no text of a band and no other mark.
    func placedMarks(arrows: [TimelineArrow], notes: [BandNote]) -> [TimelineMark] {
      let bar = rowHeight - (large ? 3 : 6)
      let r = bar / 2
      var marks: [TimelineMark] = []
      for op in p.operations {
        guard let top = rowTop[op.index] else { continue }
        let y = top + rowHeight / 2
        if let t = op.cancelledAt {
          marks.append(
            TimelineMark(kind: .cancel, x: x(t), y: y, r: r, title: op.name + ": " + op.statusLine))
        }
        if op.state == .finished, !op.errors.isEmpty, !op.cancelled, let t = op.finishedAt {
          let title = op.name + ": " + op.statusLine + ": " + op.errors.joined(separator: "; ")
          marks.append(TimelineMark(kind: .error, x: x(t), y: y, r: r, title: title))
        }
      }
      for w in p.warnings {
        let onQueue = w.kind == "suspendedQueueIdle" || p.index(ofOperation: w.subject) == nil
        let y: Double
        if !onQueue, let i = p.index(ofOperation: w.subject), let top = rowTop[i] {
          y = top + rowHeight / 2
        } else if let q = p.index(ofQueue: w.subject) {
          y = bandTop[q] + (rowHeight + 2) / 2
        } else {
          continue
        }
        let title = "\(w.subject): ⚠ \(w.kind) at \(fixed3(w.time))s: \(w.message)"
        marks.append(TimelineMark(kind: .warning, x: x(w.time), y: y, r: r, title: title))
      }
      guard !marks.isEmpty else { return marks }
      var obstacles = arrows.flatMap { $0.covers(stroke: arrowStroke) }
      obstacles += notes.map(\.box)
      MarkPlacement.place(
        &marks, avoiding: obstacles, minX: chartX - r, maxX: width - 4,
        maxShift: large ? 30 : 60)
      return marks
    }

    /// Over everything else, each with its own tooltip.
    func marks(_ b: inout TextBuffer, _ marks: [TimelineMark]) {
      guard !marks.isEmpty else { return }
      b.add("<g>\n")
      for m in marks {
        b.add("<g><title>")
        b.addXML(m.title)
        b.add("</title>")
        switch m.kind {
        case .cancel: cross(&b, m.x + m.dx, m.y, m.r)
        case .error: diamond(&b, m.x + m.dx, m.y, m.r)
        case .warning: warningMark(&b, m.x + m.dx, m.y, m.r)
        }
        b.add("</g>\n")
      }
      b.add("</g>\n")
    }

    /// An elbow: down (or up) from the source at the moment it finished, then along the target's
    /// row, over the time it spent waiting, into the moment it started.
    private func path(
      _ b: inout TextBuffer, _ a: TimelineArrow, _ color: String, _ marker: String, dashed: Bool
    ) {
      b.add("<path d=\"M")
      b.point(a.x1, a.y1)
      if a.elbow {
        b.add(" L")
        b.point(a.x1, a.y2)
      }
      b.add(" L")
      b.point(a.x2, a.y2)
      b.add("\" stroke=\"\(color)\"" + (dashed ? " stroke-dasharray=\"4 2\"" : ""))
      b.add(" marker-end=\"url(#\(marker))\"/>\n")
    }

    private func cross(_ b: inout TextBuffer, _ cx: Double, _ cy: Double, _ r: Double) {
      b.add("<path class=\"cancel-mark\" d=\"M")
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
      b.add("<path class=\"error-mark\" d=\"M")
      b.point(cx, cy - r)
      b.add(" L")
      b.point(cx + r, cy)
      b.add(" L")
      b.point(cx, cy + r)
      b.add(" L")
      b.point(cx - r, cy)
      b.add(" z\" fill=\"\(Outcome.failed.stroke)\"/>")
    }

    /// An amber warning triangle with an exclamation mark, within `r` of its centre.
    private func warningMark(_ b: inout TextBuffer, _ cx: Double, _ cy: Double, _ r: Double) {
      b.add("<path class=\"warning-mark\" d=\"M")
      b.point(cx, cy - r)
      b.add(" L")
      b.point(cx + r, cy + r)
      b.add(" L")
      b.point(cx - r, cy + r)
      b.add(" z\" fill=\"\(Palette.warningFill)\" stroke=\"\(Palette.warningStroke)\"")
      b.add(" stroke-width=\"1\" stroke-linejoin=\"round\"/>")
      guard r >= 4 else { return }
      b.add("<path d=\"M")
      b.point(cx, cy - r * 0.3)
      b.add(" L")
      b.point(cx, cy + r * 0.35)
      b.add(" M")
      b.point(cx, cy + r * 0.6)
      b.add(" L")
      b.point(cx, cy + r * 0.75)
      b.add("\" stroke=\"#3e2723\" stroke-width=\"1.4\"/>")
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
