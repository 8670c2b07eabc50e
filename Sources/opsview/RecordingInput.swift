import Foundation
import OpsExport
import OpsInput
import OpsScenarios

/// A recording named on the command line: a file, or `-` for standard input. Read with the one
/// recording reader (`RecordingReader`), which also checks the format version and refuses hostile
/// lines; any problem is printed and exits 1.
struct RecordingInput {
  var recording: Recording
  /// The recording's file name without extension ("stdin" for `-`).
  var name: String
  /// The scenario the header carries (its source text), else the built-in it names, if any.
  var scenario: Scenario?

  /// `progress` shows how the reading goes (the caller finishes it, after what it does next).
  /// `prefix`: what was read from standard input already (to tell a recording from a scenario).
  init(path: String, progress: Progress, prefix: [UInt8] = []) throws {
    do {
      if path == "-" {
        // Read as it comes, each line checked as it arrives, with the bounds of a file; a writer
        // that keeps silent is named, not waited for without a word.
        if prefix.isEmpty {
          InputFile.awaitInput(STDIN_FILENO) {
            progress.say(
              "opsview: waiting for the recording on standard input"
                + (isatty(STDIN_FILENO) == 1 ? " (type Ctrl-D to end it)" : " (Ctrl-C stops)"))
          }
        }
        progress.now("reading the recording from standard input")
        recording = try RecordingReader.read(
          fileDescriptor: STDIN_FILENO, name: "standard input", prefix: prefix,
          progress: { progress.update(done: $0, total: $1) })
        name = "stdin"
      } else {
        progress.now("reading \(path)")
        recording = try RecordingReader.read(
          path: path, announce: { printError("opsview: \($0)") },
          progress: { progress.update(done: $0, total: $1) })
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
      }
    } catch {
      progress.finish()
      printError("opsview: \(error)")
      throw Exit.scenarioError
    }
    scenario = Self.scenario(of: recording, name: name)
  }

  /// A recording whose header is read and whose events come later (`replay`'s progressive read).
  init(header: Recording, name: String) {
    recording = header
    self.name = name
    scenario = Self.scenario(of: header, name: name)
  }

  private static func scenario(of recording: Recording, name: String) -> Scenario? {
    let id = recording.scenario ?? name
    return recording.source.flatMap {
      try? ScenarioLoader.parse($0, file: "recorded:\(id)", defaultID: id)
    }
      ?? recording.scenario.flatMap(Catalog.named)
  }

  var title: String { recording.title ?? scenario?.title ?? name }
  var notes: String { recording.notes ?? scenario?.notes ?? "" }
}
