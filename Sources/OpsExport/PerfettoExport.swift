import OpsEngine
import OpsEvents

/// The Chrome / Perfetto Trace Event JSON that ui.perfetto.dev and chrome://tracing open.
///
/// Format: "Trace Event Format" (Google, docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU)
/// and Perfetto's notes on it (perfetto.dev/docs/getting-started/other-formats): an object with
/// `traceEvents`; each event has `ph`, `name`, `cat`, `ts` (µs), `pid`, `tid`, `args`; `X` slices
/// carry `dur`; `M` metadata names processes and threads; `i` instants have a scope `s` (t, p, g);
/// `C` counters draw one series per numeric arg; `s`/`f` flow events with one `id` make an arrow,
/// the start bound to the slice enclosing it, the finish (`bp: "e"`) to the slice enclosing it.
///
/// Layout: one process per queue (pid 1…); one thread (track) per operation, so its slices never
/// overlap (a concurrency slot would need care: the engine's slot numbers can repeat while
/// overlapping). Operation tids start after the last pid: Perfetto reads a tid equal to a pid as that
/// process's main thread, and a thread id seen in two processes as two threads.
/// Slices: `running` (executing, finishing) and `waiting` (initialized, pending,
/// evaluatingConditions, ready), so the waiting ones can be hidden by category. Flows: a dependency's
/// last slice → the dependent's executing slice. Instants: cancellations, productions, commands,
/// warnings. Counter per queue, `slots`: `executing` and `limit` (left out while there is none,
/// Foundation's default).
public enum PerfettoExport {
  public static func render(_ source: ExportSource) -> String {
    String(decoding: renderBytes(source), as: UTF8.self)
  }

  /// The trace as UTF-8 bytes: tens of megabytes at 50,000 operations, written as they are.
  public static func renderBytes(_ source: ExportSource) -> [UInt8] {
    let p = source.projection
    // About 1 kB an operation: one allocation for the whole trace.
    var w = Writer(p, capacity: p.operations.count * 1_100 + 4_096)
    w.b.add("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"scenario\":")
    w.b.addJSON(source.id)
    w.b.add(",\"title\":")
    w.b.addJSON(source.title)
    w.b.add(",\"clock\":\"scenario seconds as microseconds\"},\n\"traceEvents\":[\n")
    metadata(&w)
    var segments: [[StateSegment]] = []
    segments.reserveCapacity(p.operations.count)
    for op in p.operations {
      let segs = op.segments(until: source.end)
      slices(op, segs, &w)
      segments.append(segs)
    }
    flows(segments, &w)
    instants(&w)
    counters(segments, &w)
    // Nothing after the closing brace: Perfetto's JSON tokenizer is at its end there, and bytes
    // arriving in a later chunk of the file (the UI reads 32 MiB at a time) are an error.
    w.b.add("\n]}")
    return w.b.bytes
  }

  // MARK: - Parts

  private static func metadata(_ w: inout Writer) {
    for (i, q) in w.p.queues.enumerated() {
      let limit = limitText(q.changes.first?.maxConcurrent ?? nil)
      w.begin("M", pid: i + 1)
      w.b.add(",\"name\":\"process_name\",\"args\":{\"name\":")
      w.b.addJSON(q.name)
      w.b.add("}}")
      w.begin("M", pid: i + 1)
      w.b.add(",\"name\":\"process_labels\",\"args\":{\"labels\":")
      w.b.addJSON("maxConcurrent \(limit), qos \(q.qos.rawValue)")
      w.b.add("}}")
      w.begin("M", pid: i + 1)
      w.b.add(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":")
      w.b.add(i)
      w.b.add("}}")
    }
    for op in w.p.operations {
      w.begin("M", track: op.index)
      w.b.add(",\"name\":\"thread_name\",\"args\":{\"name\":")
      w.b.addJSON(op.name)
      w.b.add("}}")
      w.begin("M", track: op.index)
      w.b.add(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":")
      w.b.add(op.index)
      w.b.add("}}")
    }
  }

  private static func slices(_ op: OperationInfo, _ segs: [StateSegment], _ w: inout Writer) {
    for s in segs {
      let ts = micros(s.start)
      let running = s.state == .executing || s.state == .finishing
      w.begin("X", track: op.index)
      w.b.add(",\"ts\":")
      w.b.add(ts)
      w.b.add(",\"dur\":")
      w.b.add(micros(s.end) - ts)
      w.b.add(",\"name\":\"")
      w.b.add(s.state.rawValue)
      w.b.add(
        running ? "\",\"cat\":\"running\",\"cname\":\"" : "\",\"cat\":\"waiting\",\"cname\":\"")
      w.b.add(colorName(s.state))
      w.b.add("\",\"args\":{\"operation\":")
      w.b.addJSON(op.name)
      if let c = s.cause {
        w.b.add(",\"cause\":")
        w.b.addJSON(c.text)
      }
      if s.open { w.b.add(",\"unfinished\":true") }
      w.b.add("}}")
    }
  }

  /// One arrow per dependency edge whose two ends both spent time somewhere: from the start of the
  /// dependency's last slice to the start of the dependent's executing slice.
  ///
  /// At the start, not inside: Perfetto binds a flow event to whatever is on top of its thread's
  /// slice stack (flow_tracker.cc, slice_tracker.cc in google/perfetto's trace processor), and a
  /// thread instant stays on top until the next slice begins, so a flow after a warning inside the
  /// same slice went to the warning. At equal timestamps Perfetto sorts `X` before every other phase
  /// and keeps file order after that, and flows are written before instants: a flow at its slice's
  /// start always lands on that slice.
  private static func flows(_ segments: [[StateSegment]], _ w: inout Writer) {
    let p = w.p
    var id = 0
    for op in p.operations {
      guard let target = segments[op.index].first(where: { $0.state == .executing }),
        let to = start(target)
      else { continue }
      for d in op.dependencies {
        guard let j = p.index(ofOperation: d), p.operations[j].state == .finished,
          let last = segments[j].last, let from = start(last)
        else { continue }
        id += 1
        w.begin("s", track: j)
        w.b.add(",\"ts\":")
        w.b.add(from)
        w.b.add(",\"name\":\"dependency\",\"cat\":\"dependency\",\"id\":")
        w.b.add(id)
        w.b.add("}")
        w.begin("f", track: op.index)
        w.b.add(",\"bp\":\"e\",\"ts\":")
        w.b.add(to)
        w.b.add(",\"name\":\"dependency\",\"cat\":\"dependency\",\"id\":")
        w.b.add(id)
        w.b.add("}")
      }
    }
  }

  /// Where a segment's slice starts, if it is a slice at all (at least a microsecond long).
  private static func start(_ s: StateSegment) -> Int? {
    let a = micros(s.start)
    return micros(s.end) - a >= 1 ? a : nil
  }

  private static func instants(_ w: inout Writer) {
    let p = w.p
    for op in p.operations {
      if let t = op.cancelledAt {
        w.instant(on: op.name, at: t, name: "cancelled", category: "cancel")
        w.b.add("\"cause\":\"")
        w.b.add(op.cancelCause?.rawValue ?? "command")
        w.b.add("\"")
        if !op.errors.isEmpty {
          w.b.add(",\"errors\":")
          w.b.addJSON(op.errors.joined(separator: "; "))
        }
        w.b.add("}}")
      }
      if let producer = op.producedBy, p.index(ofOperation: producer) != nil {
        w.instant(
          on: producer, at: op.history.first?.time ?? 0, name: "produces " + op.name,
          category: "produce")
        w.b.add("\"produced\":")
        w.b.addJSON(op.name)
        w.b.add("}}")
      }
    }
    for c in p.commands {
      let text = c.command + " " + c.target + (c.value.map { " " + $0 } ?? "")
      w.instant(on: c.target, at: c.time, name: "command: " + text, category: "command")
      w.b.add("\"source\":\"")
      w.b.add(c.source.rawValue)
      w.b.add("\",\"seq\":")
      w.b.add(c.seq)
      w.b.add("}}")
    }
    for warning in p.warnings {
      w.instant(
        on: warning.subject, at: warning.time, name: "warning: " + warning.kind,
        category: "warning")
      w.b.add("\"subject\":")
      w.b.addJSON(warning.subject)
      w.b.add(",\"message\":")
      w.b.addJSON(warning.message)
      w.b.add("}}")
    }
  }

  /// A limit of none, inside `counters` only.
  private static let noLimit = Int.min

  /// Per queue, a sample whenever its executing count or its limit changes.
  private static func counters(_ segments: [[StateSegment]], _ w: inout Writer) {
    let p = w.p
    // (time µs, executing delta, new limit) for each queue.
    var changes = [[(ts: Int, delta: Int, limit: Int?)]](repeating: [], count: p.queues.count)
    for op in p.operations {
      guard let q = p.index(ofQueue: op.queue) else { continue }
      for s in segments[op.index] where s.state == .executing {
        changes[q].append((micros(s.start), 1, nil))
        if !s.open { changes[q].append((micros(s.end), -1, nil)) }
      }
    }
    for (q, queue) in p.queues.enumerated() {
      // No limit is no number: such a sample has no `limit` (Perfetto would draw -1).
      let all =
        queue.changes.map {
          (ts: micros($0.time), delta: 0, limit: Optional($0.maxConcurrent ?? Self.noLimit))
        }
        + changes[q]
      // Positions sorted by time, then by position: the same input always gives the same samples.
      let order = all.indices.sorted {
        all[$0].ts < all[$1].ts || (all[$0].ts == all[$1].ts && $0 < $1)
      }
      var executing = 0
      var limit = Self.noLimit
      var k = 0
      while k < order.count {
        let ts = all[order[k]].ts
        while k < order.count, all[order[k]].ts == ts {
          executing += all[order[k]].delta
          if let l = all[order[k]].limit { limit = l }
          k += 1
        }
        w.begin("C", queue: q)
        w.b.add(",\"ts\":")
        w.b.add(ts)
        // Perfetto names a counter track "NAME ARG": "slots executing", "slots limit".
        w.b.add(",\"name\":\"slots\",\"args\":{\"executing\":")
        w.b.add(executing)
        if limit != Self.noLimit {
          w.b.add(",\"limit\":")
          w.b.add(limit)
        }
        w.b.add("}}")
      }
    }
  }

  /// chrome://tracing's reserved colour names (Perfetto colours by name and ignores them).
  private static func colorName(_ state: OperationState) -> String {
    switch state {
    case .initialized: "grey"
    case .pending: "thread_state_sleeping"
    case .evaluatingConditions: "yellow"
    case .ready: "thread_state_runnable"
    case .executing: "thread_state_running"
    case .finishing, .finished: "olive"
    }
  }

  /// One event per line, comma-separated, in a fixed order; each operation's track is its queue's
  /// process and a thread of its own.
  private struct Writer {
    let p: Projection
    var b: TextBuffer
    private var first = true
    /// The process of each operation, by projection index (0 when its queue is unknown).
    private let pids: [Int]

    init(_ p: Projection, capacity: Int) {
      self.p = p
      b = TextBuffer(capacity: capacity)
      pids = p.operations.map { (p.index(ofQueue: $0.queue) ?? -1) + 1 }
    }

    /// `{"ph":…,"pid":…` — the caller adds the rest and closes the object.
    mutating func begin(_ ph: String, pid: Int) {
      b.add(first ? "{\"ph\":\"" : ",\n{\"ph\":\"")
      first = false
      b.add(ph)
      b.add("\",\"pid\":")
      b.add(pid)
    }

    mutating func begin(_ ph: String, track index: Int) {
      begin(ph, pid: pids[index])
      b.add(",\"tid\":")
      b.add(p.queues.count + 1 + index)
    }

    /// An event of the queue's own (main) thread, whose tid is its pid.
    mutating func begin(_ ph: String, queue q: Int) {
      begin(ph, pid: q + 1)
      b.add(",\"tid\":")
      b.add(q + 1)
    }

    /// An instant on an operation's track, else its queue's process, else the whole trace; the
    /// caller adds the args and closes both objects.
    mutating func instant(on subject: String, at time: Double, name: String, category: String) {
      if let i = p.index(ofOperation: subject) {
        begin("i", track: i)
        b.add(",\"s\":\"t\"")
      } else if let q = p.index(ofQueue: subject) {
        begin("i", queue: q)
        b.add(",\"s\":\"p\"")
      } else {
        begin("i", pid: 0)
        b.add(",\"tid\":0,\"s\":\"g\"")
      }
      b.add(",\"ts\":")
      b.add(micros(time))
      b.add(",\"name\":")
      b.addJSON(name)
      b.add(",\"cat\":\"")
      b.add(category)
      b.add("\",\"args\":{")
    }
  }
}
