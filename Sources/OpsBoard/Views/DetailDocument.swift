import OpsEngine
import OpsEvents

/// A line of styled pieces, for views built as documents.
typealias Pieces = [(text: String, style: Style)]

/// The detail view's document for one operation, as lines of styled pieces: its settings, each
/// state it entered and how long it stayed, its flags over time, the Swift of each command on it,
/// its dependencies both ways, conditions and errors. Built from the frame's context alone.
struct DetailDocument {
  let model: BoardModel
  let fullLog: ArraySlice<LogEntry>
  let workSettings: [String: String]
  let ascii: Bool
  /// Some events never arrived (a live program's viewer caught up): history times up to then are
  /// when the viewer learnt of a step, and an unknown dependency may simply be unseen.
  let missedEvents: Bool
  /// A running program: the Swift of its commands is its own, not shown.
  let live: Bool

  init(_ frame: BoardRenderer) {
    model = frame.model
    fullLog = frame.fullLog
    workSettings = frame.workSettings
    ascii = frame.ascii
    missedEvents = frame.info.missedEvents
    live = frame.info.live
  }

  func lines(_ op: OperationInfo, width: Int) -> [Pieces] {
    let now = model.now
    let heading = Style.title
    var lines: [Pieces] = []
    let look = StateLook.style(op.state)
    var settings =
      "queue \(op.queue) · \(op.kind.rawValue) · priority \(op.priority.rawValue) · qos \(op.qos.rawValue)"
    if let w = op.work { settings += " · work \(durationText(w))" }
    lines.append([("\(op.name)", look.with(.bold))])
    for w in TextWrap.wrap(settings, width: max(10, width)) { lines.append([(w, .dim)]) }
    var state: Pieces = [
      ("\(StateLook.glyph(op.state, ascii: ascii)) \(op.state.rawValue)", look.with(.bold)),
      (" for \(durationText(op.timeInState(at: now)))", .plain),
    ]
    if let p = op.progress(at: now) { state.append((" · \(Int(p * 100))% of its work", .plain)) }
    if op.cancelled {
      state.append(
        (
          "  \(StateLook.cancelledGlyph(ascii: ascii)) cancelled"
            + (op.cancelCause.map { " (\($0.rawValue))" } ?? ""),
          StateLook.cancelled
        ))
    }
    lines.append(state)
    if let p = op.producedBy { lines.append([("produced by \(p) while it executed", .plain)]) }
    if let g = op.parent {
      lines.append([("child of the group \(g): runs on \(op.queue); \(g) waits for it", .plain)])
    }
    let why = ExplanationPane.explanation(of: op, in: model, missedEvents: missedEvents)
    // At most three lines: a barrier waiting for thousands names only the first of them.
    var whyLines = TextWrap.wrap(why, width: max(10, width - 5))
    if whyLines.count > 3 {
      whyLines = Array(whyLines.prefix(3))
      whyLines[2] = String(whyLines[2].prefix(max(1, width - 7))) + " …"
    }
    for (i, w) in whyLines.enumerated() {
      lines.append([(i == 0 ? "why  " : "     ", heading), (w, .plain)])
    }
    if let work = workSettings[op.name] {
      for (i, w) in TextWrap.wrap(work, width: max(10, width - 6)).enumerated() {
        lines.append([(i == 0 ? "work  " : "      ", heading), (w, .plain)])
      }
    }
    let warnings = model.warnings(about: op.name)
    if !warnings.isEmpty {
      lines.append([])
      lines.append([("Warnings (\(warnings.count))", Style.bad)])
      for warning in warnings {
        let mark = ascii ? "! " : "⚠ "
        for (i, w) in TextWrap.wrap(warning.message, width: max(10, width - 4)).enumerated() {
          lines.append([((i == 0 ? "  " + mark : "    ") + w, Style(fg: .yellow))])
        }
      }
    }
    lines.append([])
    lines.append([("History", heading)])
    if missedEvents {
      lines.append([
        ("  events were missed: a step is shown when it was learnt of, not when it happened", .dim)
      ])
    }
    for (i, visit) in op.history.enumerated() {
      let next = i + 1 < op.history.count ? op.history[i + 1].time : nil
      let stayed =
        durationText((next ?? now) - visit.time)
        + (next == nil && visit.state != .finished ? " so far" : "")
      let name = visit.state.rawValue.rightPadded(22)
      lines.append([
        (clockText(visit.time).leftPadded(8) + "  ", .dim),
        ("\(StateLook.glyph(visit.state, ascii: ascii)) \(name)", StateLook.style(visit.state)),
        (visit.state == .finished ? "" : stayed, .plain),
      ])
    }
    lines.append([])
    lines += flagLines(op)
    lines.append([])
    lines += swiftCommandLines(op)
    lines.append([])
    func list(_ title: String, _ names: [String]) {
      lines.append([("\(title) (\(names.count))", heading)])
      if names.isEmpty { lines.append([("  none", .dim)]) }
      let cap = 200
      for name in names.prefix(cap) {
        if let dep = model.operation(named: name) {
          lines.append([
            ("  \(StateLook.glyph(dep.state, ascii: ascii)) ", StateLook.style(dep.state)),
            (name.rightPadded(16) + "  ", .plain),
            (dep.state.rawValue + (dep.cancelled ? ", cancelled" : ""), StateLook.style(dep.state)),
          ])
        } else if missedEvents {
          lines.append([
            ("  ? \(name)  not seen: the events before the catch-up did not arrive", .dim)
          ])
        } else {
          lines.append([("  ? \(name)  not added to a queue yet", .dim)])
        }
      }
      if names.count > cap { lines.append([("  +\(names.count - cap) more", .dim)]) }
    }
    list("Waits for", op.dependencies)
    list("Waited for by", op.dependents)
    // A group's children and what an operation produced, read off the projection's records.
    let children = model.operations.filter { $0.parent == op.name }.map(\.name)
    if op.kind == .group || !children.isEmpty {
      list("Children (the group waits for them)", children)
    }
    let produced = model.operations.filter { $0.producedBy == op.name }.map(\.name)
    if !produced.isEmpty { list("Produced while it executed", produced) }
    lines.append([])
    lines.append([("Conditions (\(op.conditions.count))", heading)])
    if op.conditions.isEmpty { lines.append([("  none", .dim)]) }
    for c in op.conditions {
      var span = ""
      if let s = c.evaluationStarted {
        span =
          "  evaluated \(clockText(s))–"
          + (c.evaluationEnded.map { "\(clockText($0)) (\(durationText($0 - s)))" } ?? "…")
      }
      lines.append([
        ("  \(ConditionLook.glyph(c.status, ascii: ascii)) ", ConditionLook.style(c.status)),
        (ConditionLook.describe(c), ConditionLook.style(c.status)),
        (span, .dim),
      ])
    }
    lines.append([])
    lines.append([("Observers (\(op.observers.count))", heading)])
    if op.observers.isEmpty { lines.append([("  none called yet", .dim)]) }
    for call in op.observers {
      lines.append([(clockText(call.time).leftPadded(8) + "  ", .dim), (call.name, .plain)])
    }
    lines.append([])
    lines.append([("Errors (\(op.errors.count))", heading)])
    if op.errors.isEmpty { lines.append([("  none", .dim)]) }
    for e in op.errors {
      for (i, w) in TextWrap.wrap(e, width: max(10, width - 4)).enumerated() {
        lines.append([((i == 0 ? "  ✗ " : "    ") + w, Style(fg: .red))])
      }
    }
    if op.inCycle {
      lines.append([])
      lines.append([("Part of a dependency cycle: none of its members can ever start.", .bad)])
    }
    return lines
  }

  /// The four NSOperation flags over time: one row per state entered (and the moment the cancelled
  /// flag was set), so the flags a KVO observer would have seen can be read off in order.
  func flagLines(_ op: OperationInfo) -> [Pieces] {
    var lines: [Pieces] = [
      [("Flags over time", Style.title)],
      [("          isReady isExecuting isFinished isCancelled", .dim)],
    ]
    var previous: OperationFlags?
    var moments: [(time: Double, state: OperationState, cancelled: Bool)] = []
    for visit in op.history {
      if let c = op.cancelledAt, c < visit.time, !(moments.last?.cancelled ?? false) {
        moments.append((c, moments.last?.state ?? .initialized, true))
      }
      moments.append((visit.time, visit.state, op.cancelledAt.map { $0 <= visit.time } ?? false))
    }
    if let c = op.cancelledAt, !(moments.last?.cancelled ?? true) {
      moments.append((c, op.state, true))
    }
    for m in moments {
      let f = OperationFlags(state: m.state, cancelled: m.cancelled)
      // Only the moments the flags change (initialized → pending changes none of them).
      if f == previous { continue }
      previous = f
      var line: Pieces = [(clockText(m.time).leftPadded(9) + " ", .dim)]
      for (value, width) in [
        (f.isReady, 7), (f.isExecuting, 12), (f.isFinished, 11), (f.isCancelled, 12),
      ] {
        line.append(((value ? "yes" : "no").leftPadded(width), value ? .good : .dim))
      }
      lines.append(line)
    }
    return lines
  }

  /// The detail view's "In Swift" section: each command that touched the operation or its queue,
  /// with the line of Foundation Swift it stands for.
  func swiftCommandLines(_ op: OperationInfo) -> [Pieces] {
    let heading = Style.title
    let commands = fullLog.filter { entry in
      entry.swiftLine != nil && (entry.subject == op.name || entry.subject == op.queue)
    }
    if live {
      return [
        [("In Swift", heading)],
        [("  a running program's code is its own: the board does not know it", .dim)],
      ]
    }
    var lines: [Pieces] = [[("In Swift (\(commands.count) commands on it or its queue)", heading)]]
    if commands.isEmpty { lines.append([("  none", .dim)]) }
    for entry in commands.suffix(50) {
      lines.append([
        (clockText(entry.time).leftPadded(8) + "  ", .dim),
        (entry.swiftLine ?? "", .bold),
      ])
    }
    return lines
  }
}
