import ArgumentParser
import Foundation
import OpsEngine
import OpsEvents
import OpsInput
import OpsScenarios

/// `opsview trace`: run a scenario headless on the virtual clock and print its events.
struct Trace: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Run a scenario headless on the virtual clock, as fast as possible, and print the event trace.",
    discussion: "The same scenario always prints byte-identical output.")

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
  }

  @OptionGroup var source: TraceSource

  @Option(
    help: "Output format: text (aligned, human-readable) or jsonl (one JSON object per line).")
  var format: Format = .text

  @Option(
    parsing: .unconditional,
    help: "Stop at this many scenario seconds (from 0 to \(NumberOption.maxUntilText)).")
  var until: Double?

  @Flag(help: "After each change, say why each affected operation is waiting (text format only).")
  var explain = false

  func validate() throws {
    if let u = until, let problem = NumberOption.untilProblem(u) { throw ValidationError(problem) }
    if explain && format != .text { throw ValidationError("--explain needs --format text") }
  }

  func run() throws {
    keepHeapForBatchWork()
    if source.scenario == "-" || source.scenario.lowercased().hasSuffix(".jsonl") {
      return try traceRecording()
    }
    let s = try source.resolve()
    var annotator: AnnotatorBox?
    let runtime: VirtualRuntime
    let out: TraceWriter
    // The events stream straight to the output: no recording of them is kept.
    switch format {
    case .jsonl:
      // The JSON writer escapes every control character, C1 included: safe on a terminal as is.
      out = TraceWriter { event, buffer in buffer.writeJSONLine(of: event) }
      // Nothing reads the runtime's projection here: the lints' part of it is enough.
      runtime = s.makeRuntime(recording: false, fullProjection: false) { out.event($0) }
    case .text:
      let names = s.queues.map(\.name) + s.operations.map(\.spec.name)
      let groups = s.operations.filter { $0.spec.kind == .group }.map(\.spec.name)
      let text = TextTrace(names: names, groups: groups)
      out = TraceWriter { event, buffer in buffer.writeTraceLine(of: event, text) }
      out.line(TextPolicy.escaped("# \(s.id): \(s.title)", keepNewlines: false))
      out.line(text.header)
      let box = AnnotatorBox(TraceAnnotator(text: text, explain: explain))
      annotator = box
      runtime = s.makeRuntime(recording: false, fullProjection: false) { event in
        // The why lines read the projection as it is at this event: made here, written in order.
        if box.value.explain {
          for line in box.value.annotate(event) { out.line(TextPolicy.escaped(line)) }
        }
        out.event(event)
      }
    }
    runtime.run(until: until)
    if format == .text {
      for line in annotator?.finish() ?? [] { out.line(TextPolicy.escaped(line)) }
      let unfinished = s.operations.filter { op in
        let st = runtime.state(of: op.spec.name)
        return st != nil && st != .finished && st != .initialized
      }.map(\.spec.name)
      let end = until.map { "stopped at \(fixed3($0))s" } ?? "idle at \(fixed3(runtime.now))s"
      out.line(
        TextPolicy.escaped(
          "# \(end): \(runtime.eventCount) events"
            + (unfinished.isEmpty
              ? ", every operation that was added finished"
              : ", \(unfinished.count) never finished: \(unfinished.prefix(12).joined(separator: ", "))"
                + (unfinished.count > 12 ? ", …" : "")),
          keepNewlines: false))
    }
    out.finish()
    leaveToExit((s, runtime))
  }
}

extension Trace {
  /// A recording prints as its run did: the same lines, from the recorded events up to `--until`.
  fileprivate func traceRecording() throws {
    let progress = Progress("reading")
    defer { progress.finish() }
    let input = try RecordingInput(path: source.scenario, progress: progress)
    progress.now("folding \(input.recording.events.count) events")
    let events = input.recording.events.filter { until == nil || $0.time <= until! }
    var projection = Projection()
    for event in events { projection.apply(event) }
    let out = BufferedOutput()
    switch format {
    case .jsonl:
      progress.finish()
      for event in events { out.writeJSONLine(of: event) }
    case .text:
      progress.finish()
      let names = projection.queues.map(\.name) + projection.operations.map(\.name)
      let groups = projection.operations.filter { $0.kind == .group }.map(\.name)
      let text = TextTrace(names: names, groups: groups)
      out.write("# \(input.recording.scenario ?? input.name): \(input.title)")
      out.write(text.header)
      var annotator = TraceAnnotator(text: text, explain: explain)
      for event in events {
        for line in annotator.annotate(event) { out.write(line) }
        out.write(text.line(event))
      }
      for line in annotator.finish() { out.write(line) }
      let unfinished = projection.operations.filter {
        $0.state != .finished && $0.state != .initialized
      }.map(\.name)
      let end =
        until.map { "stopped at \(fixed3($0))s" } ?? "recording ends at \(fixed3(projection.now))s"
      out.write(
        "# \(end): \(events.count) events"
          + (unfinished.isEmpty
            ? ", every operation that was added finished"
            : ", \(unfinished.count) never finished: \(unfinished.prefix(12).joined(separator: ", "))"
              + (unfinished.count > 12 ? ", …" : "")))
    }
    out.flush()
  }
}

final class AnnotatorBox {
  var value: TraceAnnotator
  init(_ value: TraceAnnotator) { self.value = value }
  func finish() -> [String] { value.finish() }
}

/// Collects lines and writes them to stdout in large chunks: traces of thousands of events stay fast.
final class BufferedOutput {
  // Used by one thread at a time (the trace's writer): dynamic exclusivity checks were 4% of writing
  // a text trace.
  @exclusivity(unchecked) private var buffer: [UInt8] = []

  /// A line, escaped if it needs it (see `TextPolicy`): whatever it quotes cannot act on a terminal.
  func write(_ line: String) {
    if TextPolicy.needsEscaping(line, newlines: true) {
      buffer.append(contentsOf: TextPolicy.escaped(line, keepNewlines: false).utf8)
    } else {
      buffer.append(contentsOf: line.utf8)
    }
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count > 1 << 16 { flush() }
  }

  /// An event's JSON line, written straight into the buffer.
  func writeJSONLine(of event: Event) {
    event.appendJSONLine(to: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count > 1 << 16 { flush() }
  }

  /// An event's text trace line, escaped (see `TerminalSafe`), written straight into the buffer.
  func writeTraceLine(of event: Event, _ text: TextTrace) {
    let start = buffer.count
    text.appendLine(event, to: &buffer)
    if TextPolicy.needsEscaping(bytes: buffer[start...], newlines: true) {
      buffer.removeSubrange(start...)
      buffer.append(contentsOf: TextPolicy.escaped(text.line(event), keepNewlines: false).utf8)
    }
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count > 1 << 16 { flush() }
  }

  func flush() {
    StandardOutput.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
