import ArgumentParser
import Foundation
import OpsBoard
import OpsCells
import OpsExport
import OpsInput
import OpsScenarios
import OpsTerminal
import Synchronization

/// `opsview replay`: a recording on the board.
struct Replay: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a recording (from `play --record` or `trace --format jsonl`) on the board.",
    discussion: """
      Pause, step, speed, time travel, filters, detail, warnings and explanations work as for a \
      scenario: they are computed from the recorded events. A recording takes no commands. FILE - \
      reads standard input (keys then come from the terminal). A long recording is shown as it is \
      read: the header says how far the reading is.
      """)

  @Argument(
    help: "The recording (.jsonl), or - for standard input.",
    completion: ScenarioCompletion.recordings)
  var file: String

  @OptionGroup var playback: PlaybackOptions
  @OptionGroup var display: DisplayOptions

  func run() throws {
    let progress = Progress("reading")
    defer { progress.finish() }
    let (fd, size, name) = try openInput(progress)
    if file == "-" { try StandardInput.takeKeysFromTerminal(what: "the recording") }
    // The reading goes on beside the board: the board starts once the header (or the first events)
    // is read, and plays what is read so far.
    let feed = RecordingFeed()
    let header = Mutex<Recording?>(nil)
    let started = DispatchSemaphore(value: 0)
    let readable = file == "-" ? "standard input" : file
    Thread.detachNewThread {
      defer { close(fd) }
      do {
        _ = try RecordingReader.read(
          fileDescriptor: fd, name: readable, size: size,
          progress: { feed.read(bytes: $0, of: $1) },
          received: { recording in
            let first = header.withLock { h in
              defer { if h == nil { h = recording } }
              return h == nil
            }
            feed.add(recording.events)
            if first { started.signal() }
          })
        feed.finish()
      } catch {
        feed.finish(failure: "\(error)")
      }
      started.signal()
    }
    do {
      try TerminalApp.preflight()
    } catch {
      // No board to show it on: what is wrong with the recording is said first, as when it was
      // read whole before the board.
      while !feed.progress.finished { usleep(10_000) }
      progress.finish()
      if let why = feed.progress.failure {
        printError("opsview: \(why)")
        throw Exit.scenarioError
      }
      printError("\(error)")
      throw Exit.usage
    }
    started.wait()
    guard var recording = header.withLock({ $0 }) else {
      progress.finish()
      printError("opsview: \(feed.progress.failure ?? "\(readable): the recording has no events")")
      throw Exit.scenarioError
    }
    recording.events = []
    let input = RecordingInput(header: recording, name: name)
    let shown = CurrentSource()
    let board = BoardSession(
      title: input.title, notes: input.notes, speed: playback.speed ?? input.scenario?.speed ?? 1,
      paused: playback.paused,
      workSettings: input.scenario?.workSettings ?? [:],
      makeSource: {
        let source = RecordingSource(feed: feed)
        shown.source = source
        return source
      })
    progress.finish()
    board.theme = display.theme
    try runOnTerminal(board: ReadingBoard(board, feed: feed, shown: shown), display)
    if let why = feed.progress.failure {
      printError("opsview: \(why)")
      throw Exit.scenarioError
    }
  }

  /// The recording's descriptor, its size when known, and its name for the board.
  private func openInput(_ progress: Progress) throws -> (Int32, Int?, String) {
    if file == "-" {
      InputFile.awaitInput(STDIN_FILENO) {
        progress.say(
          "opsview: waiting for the recording on standard input"
            + (isatty(STDIN_FILENO) == 1 ? " (type Ctrl-D to end it)" : " (Ctrl-C stops)"))
      }
      progress.now("reading the recording from standard input")
      // Its own descriptor: standard input becomes the terminal, for keys.
      return (dup(STDIN_FILENO), nil, "stdin")
    }
    progress.now("reading \(file)")
    let opened: (fd: Int32, size: Int?)
    do {
      opened = try InputFile.open(
        file, what: "a recording", announce: { progress.say("opsview: \($0)") })
    } catch {
      printError("opsview: \(file): cannot read the recording: \(error)")
      throw Exit.scenarioError
    }
    if let size = opened.size, size > RecordingReader.maxBytes {
      close(opened.fd)
      printError(
        "opsview: \(file): a recording of \(size) bytes; the most read is \(RecordingReader.maxBytes)"
      )
      throw Exit.scenarioError
    }
    return (
      opened.fd, opened.size, URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    )
  }

}

/// The source the board shows now (a restart makes a new one over the same feed).
private final class CurrentSource {
  var source: RecordingSource?
}

/// The board over a recording being read: it keeps looking at the reading while paused (the
/// header's progress moves on), frames keep coming while there is more to read, and a reading that
/// fails ends the board with its reason.
private final class ReadingBoard: InteractiveBoard {
  let session: BoardSession
  private let feed: RecordingFeed
  private let shown: CurrentSource
  init(_ session: BoardSession, feed: RecordingFeed, shown: CurrentSource) {
    self.session = session
    self.feed = feed
    self.shown = shown
  }
  func tick(elapsed: Double) {
    if session.paused, let source = shown.source, !source.reading.finished {
      source.refresh()
      // Paused, the clock stays, but what the reading brings up to it (the run's setup at time 0)
      // is shown as it comes, as a recording read whole shows it at once.
      source.advance(by: 0)
      session.advance(by: 0)
    }
    session.tick(elapsed: elapsed)
  }
  func handle(_ input: KeyInput) -> Bool { session.handle(input) }
  func render(width: Int, height: Int, ascii: Bool) -> CellGrid {
    session.render(width: width, height: height, ascii: ascii)
  }
  var nextFrameDelay: Double? {
    // Until the board has seen the reading end (the header then stops saying it reads).
    session.nextFrameDelay ?? (shown.source?.reading.finished ?? true ? nil : 0.1)
  }
  var hasEnded: Bool { feed.progress.failure != nil }
}
