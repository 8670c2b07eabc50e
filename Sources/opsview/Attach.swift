import ArgumentParser
import Foundation
import OpsBoard
import OpsCells
import OpsEngine
import OpsEvents
import OpsExport
import OpsInput
import OpsProbe
import OpsTerminal

/// `opsview attach`: the board over a running program's probe.
struct Attach: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Watch a running program that started an OpsProbe; with no address, list them.",
    discussion: """
      Probes listen on Unix sockets under $XDG_RUNTIME_DIR/opsview (else /tmp/opsview-UID), \
      readable by this user only (a directory of another user, or open to others, is refused), or \
      on a loopback TCP port when the program asked for one (the viewer presents the token from \
      the probe's 0600 file, or OPSVIEW_TOKEN). \
      Steering keys work only if the program enabled control. Given a socket or a program name, \
      the board follows the program: when it exits the board shows "disconnected" and waits for \
      the program to start again, then shows its new run.
      """)

  @Argument(
    help:
      "A probe's socket path (as `opsview attach` lists them), a program name (its newest probe), or 127.0.0.1:PORT."
  )
  var address: String?

  @Option(
    help: ArgumentHelp(
      "Write what the program sends to FILE, a recording for `opsview replay` (a restarted program's next run goes to FILE-run2.jsonl, and so on).",
      valueName: "FILE"))
  var record: String?

  @Flag(help: "Let --record replace files that exist.")
  var force = false

  @OptionGroup var display: DisplayOptions

  func run() throws {
    guard let address else {
      let probes = ProbeAddress.running()
      if let problem = ProbeAddress.directoryProblem {
        printError("opsview: \(problem)")
        throw ExitCode(1)
      }
      if probes.isEmpty {
        print(
          TextPolicy.escaped(
            "no probes running for this user (looked in \(ProbeAddress.directory))",
            keepNewlines: false))
      }
      // A socket's name is anyone's choice in that directory: printed through the one policy.
      for p in probes { print(TextPolicy.escaped(p, keepNewlines: false)) }
      return
    }
    let target: ProbeTarget
    do {
      target = try ProbeTarget.parse(address)
    } catch {
      printError("\(error)")
      throw Exit.usage
    }
    if case .socket(let path) = target, !FileManager.default.fileExists(atPath: path),
      target.programName == nil
    {
      printError(
        "no probe at \(ProbeTarget.visible(path)) (`opsview attach` lists the running ones)")
      throw Exit.usage
    }
    try preflightTerminal()
    let client = ProbeClient(target: target)
    defer { client.close() }
    let source = ProbeSource(client: client)
    var liveRecorder: LiveRecorder?
    if let record {
      do {
        let recorder = try LiveRecorder(path: record, title: target.description, force: force)
        source.onReceive = { recorder.record($0, run: $1) }
        source.recordingNote = { recorder.note }
        liveRecorder = recorder
      } catch {
        printError("opsview: \(error)")
        throw Exit.scenarioError
      }
    }
    defer { if let note = liveRecorder?.finalNote { printError("opsview: \(note)") } }
    let title = target.programName ?? target.description
    // One source for the board's whole life: a restart (`r`, or the program's new run) shows the
    // events received for the current run again.
    let session = BoardSession(title: title, notes: "", makeSource: { source })
    session.theme = display.theme
    try runOnTerminal(board: LiveBoard(session, source), display)
    if let why = source.refusal {
      printError("opsview: \(why)")
      throw ExitCode(1)
    }
    if let why = source.failure {
      printError("the probe at \(target) sent a stream opsview cannot read: \(why)")
      throw ExitCode(1)
    }
  }
}

/// The board over a live source, which ends by itself when the stream breaks the protocol.
final class LiveBoard: InteractiveBoard {
  let session: BoardSession
  private let source: ProbeSource
  init(_ session: BoardSession, _ source: ProbeSource) {
    self.session = session
    self.source = source
  }
  func tick(elapsed: Double) {
    // Paused, the view stays still but keeps reading: the header counts the events waiting to be
    // shown, and a broken stream still ends the board.
    if session.paused { source.refresh() }
    session.tick(elapsed: elapsed)
  }
  func handle(_ input: KeyInput) -> Bool { session.handle(input) }
  func render(width: Int, height: Int, ascii: Bool) -> CellGrid {
    session.render(width: width, height: height, ascii: ascii)
  }
  var nextFrameDelay: Double? {
    // Paused, the view still looks at the connection now and then (to end on a broken stream).
    session.nextFrameDelay ?? 0.25
  }
  var hasEnded: Bool { source.failure != nil || source.refusal != nil }
}

/// `attach --record FILE`: what the program sends, in the recording format `play --record` writes,
/// one file a program run, at most `maxFiles` of them (a program that restarts every fraction of a
/// second must not fill a directory): later runs are counted and named, not written.
final class LiveRecorder {
  static let maxFiles = 10
  private let path: String
  private let title: String
  private var run = 0
  private var file: RecordingFile?
  private var files = 0
  private var skipped = 0
  private let force: Bool
  /// Runs whose file could not be written (it exists, the disk is full…), with why.
  private var unwritten: [String] = []

  init(path: String, title: String, force: Bool) throws {
    self.path = path
    self.title = title
    self.force = force
    file = try RecordingFile(path: path, header: header(run: 1), force: force)
    run = 1
    files = 1
  }

  /// For the board's header, once runs are no longer recorded.
  var note: String? {
    skipped == 0 ? nil : "recording stopped after \(Self.maxFiles) runs (\(skipped) not recorded)"
  }

  /// For the end: which runs were not written.
  var finalNote: String? {
    var notes = unwritten
    if skipped > 0 {
      notes.append(
        "wrote the first \(Self.maxFiles) runs of the program; \(skipped) later run\(skipped == 1 ? " was" : "s were") not recorded"
      )
    }
    return notes.isEmpty ? nil : notes.joined(separator: "\nopsview: ")
  }

  private func header(run: Int) -> RecordingHeader {
    RecordingHeader(
      opsview: Opsview.configuration.version, scenario: "attach",
      title: run > 1 ? "\(title) (run \(run))" : title, source: nil)
  }

  func record(_ event: OpsEvents.Event, run: Int) {
    if run != self.run {
      self.run = run
      let url = URL(fileURLWithPath: path)
      let ext = url.pathExtension.isEmpty ? "jsonl" : url.pathExtension
      let next = url.deletingPathExtension().path + "-run\(run).\(ext)"
      file = nil
      guard files < Self.maxFiles else {
        skipped += 1
        return
      }
      do {
        file = try RecordingFile(path: next, header: header(run: run), force: force)
      } catch {
        unwritten.append("run \(run) not recorded: \(error)")
      }
      files += 1
    }
    file?.record(.event(event))
  }
}
