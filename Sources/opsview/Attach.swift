import ArgumentParser
import Foundation
import OpsBoard
import OpsCells
import OpsEngine
import OpsExport
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

  @OptionGroup var display: DisplayOptions

  func run() throws {
    guard let address else {
      let probes = ProbeAddress.running()
      if let problem = ProbeAddress.directoryProblem {
        printError("opsview: \(problem)")
        throw ExitCode(1)
      }
      if probes.isEmpty {
        print("no probes running for this user (looked in \(ProbeAddress.directory))")
      }
      for p in probes { print(p) }
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
    if let record {
      do {
        let recorder = try LiveRecorder(path: record, title: target.description)
        source.onReceive = { recorder.record($0, run: $1) }
      } catch {
        printError("opsview: cannot write the recording \(ProbeTarget.visible(record)): \(error)")
        throw Exit.scenarioError
      }
    }
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
/// one file a program run.
final class LiveRecorder {
  private let path: String
  private let title: String
  private var run = 0
  private var file: RecordingFile?

  init(path: String, title: String) throws {
    self.path = path
    self.title = title
    file = try RecordingFile(path: path, header: header(run: 1))
    run = 1
  }

  private func header(run: Int) -> RecordingHeader {
    RecordingHeader(
      opsview: Opsview.configuration.version, scenario: "attach",
      title: run > 1 ? "\(title) (run \(run))" : title, source: nil)
  }

  func record(_ event: OpsEngine.Event, run: Int) {
    if run != self.run {
      self.run = run
      let url = URL(fileURLWithPath: path)
      let ext = url.pathExtension.isEmpty ? "jsonl" : url.pathExtension
      let next = url.deletingPathExtension().path + "-run\(run).\(ext)"
      file = try? RecordingFile(path: next, header: header(run: run))
    }
    file?.record(.event(event))
  }
}
