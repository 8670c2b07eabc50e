import Foundation
import OpsExport
import OpsInput
import OpsScenarios

/// `-` where a command reads a file: standard input, read once, with the bounds of a file. Where a
/// command takes a scenario or a recording (`trace`, `export`), the first line tells which
/// (`RecordingReader.isRecording`), as the extension does for a file; elsewhere it is a scenario.
enum StandardInput {
  enum Content {
    case scenario(Scenario)
    case recording(RecordingInput)
  }

  /// A scenario or a recording; any problem is printed and exits 1.
  static func scenarioOrRecording(progress: Progress) throws -> Content {
    awaitInput(what: "a scenario or a recording")
    let first = firstLine()
    if RecordingReader.isRecording(firstLine: first.line) {
      return .recording(try RecordingInput(path: "-", progress: progress, prefix: first.bytes))
    }
    return .scenario(try scenario(prefix: first.bytes, progress: progress))
  }

  /// A scenario (`play -`, `code -`); any problem is printed and exits 1.
  static func scenario(progress: Progress) throws -> Scenario {
    awaitInput(what: "a scenario")
    return try scenario(prefix: [], progress: progress)
  }

  /// A scenario, its problems thrown as `ScenarioError` (`check -` prints them with its others).
  static func loadScenario(progress: Progress) throws -> Scenario {
    awaitInput(what: "a scenario")
    progress.now("reading the scenario from standard input")
    return try ScenarioLoader.load(fileDescriptor: STDIN_FILENO)
  }

  private static func scenario(prefix: [UInt8], progress: Progress) throws -> Scenario {
    progress.now("reading the scenario from standard input")
    do {
      return try ScenarioLoader.load(fileDescriptor: STDIN_FILENO, prefix: prefix)
    } catch let error as ScenarioError {
      throw reportScenarioProblems(error, progress: progress)
    }
  }

  /// Standard input was the scenario or the recording: the board's keys come from the controlling
  /// terminal.
  static func takeKeysFromTerminal(what: String) throws {
    let fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)
    guard fd >= 0, dup2(fd, STDIN_FILENO) >= 0 else {
      printError("opsview: \(what) came on standard input and there is no terminal for keys")
      throw Exit.usage
    }
    close(fd)
  }

  /// A writer that keeps silent is named, not waited for without a word.
  private static func awaitInput(what: String) {
    InputFile.awaitInput(STDIN_FILENO) {
      printError(
        "opsview: waiting for \(what) on standard input"
          + (isatty(STDIN_FILENO) == 1 ? " (type Ctrl-D to end it)" : ""))
    }
  }

  /// Reads until the first newline (or the end, or a line longer than any recording's): the bytes
  /// read, and the first line among them.
  private static func firstLine() -> (bytes: [UInt8], line: ArraySlice<UInt8>) {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while !bytes.contains(0x0A) && bytes.count <= RecordingReader.maxLineBytes {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && errno == EAGAIN {
        InputFile.awaitInput(STDIN_FILENO) {}
        continue
      }
      // The end, or an error the reader that takes over will meet again and report.
      if n <= 0 { break }
      bytes.append(contentsOf: chunk[..<n])
    }
    let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    return (bytes, bytes[..<end])
  }
}
