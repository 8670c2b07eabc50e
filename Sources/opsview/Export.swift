import ArgumentParser
import Foundation
import OpsBoard
import OpsEngine
import OpsEvents
import OpsExport
import OpsInput
import OpsScenarios

/// `opsview export`: a run in one of the formats `ExportFormat` declares.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Export a run for handouts and other tools, in one of the formats listed below.",
    discussion: """
      SOURCE is a built-in scenario, a scenario file (run headless on the virtual clock), or a \
      recording: a .jsonl file of events as `opsview trace --format jsonl` prints them, after an \
      optional header line with a "format" key. The same source always gives byte-identical output.
      Formats:
      \(ExportFormat.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
      Exit codes: 0 ok, 1 the source cannot be read or run, or the output cannot be written (FILE is \
      then left as it was), 2 usage.
      """)

  @Argument(
    help:
      "A built-in scenario name, a scenario file, a recording (.jsonl), or - for standard input (either).",
    completion: ScenarioCompletion.scenariosAndRecordings)
  var source: String

  @Option(help: ArgumentHelp("The output format, one of those listed above.", valueName: "format"))
  var format: ExportFormat

  @Option(
    name: [.customShort("o"), .long],
    help: ArgumentHelp("Write to FILE (default: standard output).", valueName: "file"))
  var output: String?

  // Unconditional: `--until -1` is a value to refuse with its bounds, not a missing one.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Stop at this many scenario seconds (from 0 to \(NumberOption.maxUntilText)): states and colours as they were then.",
      valueName: "seconds"))
  var until: Double?

  @Option(
    help: ArgumentHelp(
      "With --format mermaid: a stateDiagram-v2 of this operation's path instead of the graph.",
      valueName: "name"))
  var operation: String?

  func validate() throws {
    if let u = until, let problem = NumberOption.untilProblem(u) { throw ValidationError(problem) }
    if operation != nil && format != .mermaid {
      throw ValidationError("--operation needs --format mermaid")
    }
  }

  func run() throws {
    let file: OutputFile
    do {
      // Never over the source it reads (`export run.jsonl -o run.jsonl` replaced its own input).
      file = try OutputFile(output, inputs: [source])
    } catch {
      printError("opsview: \(error)")
      throw Exit.scenarioError
    }
    let progress = Progress("reading \(source)")
    defer { progress.finish() }
    let exportSource = try load(progress)
    progress.now("writing the \(format.rawValue) export")
    do {
      // Every byte of a handout passes the one text policy: nothing in it can act on a terminal
      // it is printed to (`cat handout.md`), whatever the source held.
      let bytes = TextPolicy.sanitized(
        try format.renderBytes(
          exportSource, operation: operation))
      try file.commit(bytes: bytes)
    } catch {
      file.discard()
      printError("opsview: \(error)")
      throw Exit.scenarioError
    }
  }

  /// A recording is read as it is; a scenario is run on the virtual clock.
  private func load(_ progress: Progress) throws -> ExportSource {
    let scenario: Scenario
    if source == "-" {
      switch try StandardInput.scenarioOrRecording(progress: progress) {
      case .recording(let input): return recorded(input.recording, name: input.name)
      case .scenario(let s): scenario = s
      }
    } else if URL(fileURLWithPath: source).pathExtension.lowercased() == "jsonl" {
      let recording: Recording
      do {
        recording = try RecordingReader.read(
          path: source, announce: { printError("opsview: \($0)") },
          progress: { progress.update(done: $0, total: $1) })
      } catch {
        progress.finish()
        printError("opsview: \(error)")
        throw Exit.scenarioError
      }
      let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
      return recorded(recording, name: name)
    } else {
      scenario = try resolveScenario(source)
    }
    progress.now("running \(scenario.id)")
    if format == .html { return htmlSource(scenario) }
    // Only the handout reads events, and only its first rows: the rest are counted, not kept (a
    // 50,000-operation run has 450,000 of them).
    let kept = EventPrefix(keeping: format == .markdown ? MarkdownHandout.defaultTraceRows : 0)
    let runtime = scenario.makeRuntime(recording: false) { kept.add($0) }
    runtime.run(until: until)
    return ExportSource(
      id: scenario.id, title: scenario.title, lesson: scenario.notes, events: kept.events,
      eventCount: kept.count, projection: runtime.projection, end: runtime.now)
  }
}

extension Export {
  fileprivate func recorded(_ recording: Recording, name: String) -> ExportSource {
    // A header that names a built-in scenario but not its words: take them from the catalogue.
    let builtIn = recording.title == nil ? recording.scenario.flatMap(Catalog.named) : nil
    return ExportSource(
      id: recording.scenario ?? name, title: recording.title ?? builtIn?.title ?? "",
      lesson: recording.notes ?? builtIn?.notes ?? "", recorded: recording.events, until: until)
  }

  /// The whole run, played as the board plays it when nobody presses a key, with its moments where
  /// the board stops for them and the board's quiz question at each (`HandoutQuiz`).
  fileprivate func htmlSource(_ scenario: Scenario) -> ExportSource {
    let moments = scenario.playMoments
    // Recording: `subscribe` replays the events published while the scenario was set up.
    let runtime = scenario.makeRuntime()
    let (allStops, allEvents) = MomentRun.play(runtime, moments: moments)
    let events = until.map { u in allEvents.filter { $0.time <= u } } ?? allEvents
    let stops = allStops.filter { stop in
      stop.seq <= events.count && (until.map { stop.time <= $0 } ?? true)
    }
    var projection = Projection()
    for e in events { projection.apply(e) }
    if let until { projection.advanceClock(to: until) }
    // The board's quiz, asked where the board stops for each moment in quiz mode.
    let board = HandoutQuiz.play(
      BoardScenario(
        title: scenario.title, notes: scenario.notes, moments: moments,
        makeRuntime: { scenario.makeRuntime() }))
    let questions = stops.indices.compactMap { i -> (Int, QuizQuestion)? in
      guard let asked = board.first(where: { $0.moment == stops[i].moment }),
        let q = asked.question, q.revealAt <= events.count
      else { return nil }
      return (i, q)
    }
    var result = ExportSource(
      id: scenario.id, title: scenario.title, lesson: scenario.notes, events: events,
      projection: projection, end: until ?? runtime.now)
    result.teaching = HTMLTeaching(
      stops: stops.map {
        HTMLTeaching.Stop(
          seq: $0.seq, time: $0.time, caption: moments[$0.moment].caption,
          claims: moments[$0.moment].claims.map(\.text))
      },
      questions: questions.map { s, q in
        HTMLTeaching.Question(
          stop: s, prompt: q.prompt, choices: q.choices, answer: q.answer, accepted: q.accepted,
          revealAt: q.revealAt, explanation: q.explanation, focus: q.focus)
      })
    return result
  }
}

/// The first events of a run, and how many there were.
private final class EventPrefix {
  let limit: Int
  private(set) var events: [Event] = []
  private(set) var count = 0

  init(keeping limit: Int) { self.limit = limit }

  func add(_ event: Event) {
    count += 1
    if events.count < limit { events.append(event) }
  }
}

/// The CLI reads the formats the exports declare: a new format needs no change here.
extension ExportFormat: ExpressibleByArgument {}
