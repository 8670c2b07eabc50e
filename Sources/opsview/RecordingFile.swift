import Foundation
import OpsBoard
import OpsExport

/// `play --record FILE`: the board's present as a recording, written as it happens (a header line,
/// then one event a line). A restart, or time travel's "resume from here", starts the present again:
/// the file is cut back to its header and the present written anew, so it always holds one run.
final class RecordingFile {
  private let handle: FileHandle
  private let headerLength: UInt64

  init(path: String, header: RecordingHeader) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let line = Data((header.jsonLine + "\n").utf8)
    try handle.write(contentsOf: line)
    headerLength = UInt64(line.count)
  }

  func record(_ change: PresentChange) {
    // A full disk must not stop the board: the recording is then incomplete, not the run.
    switch change {
    case .event(let event):
      try? handle.write(contentsOf: Data((event.jsonLine + "\n").utf8))
    case .reset:
      try? handle.truncate(atOffset: headerLength)
      _ = try? handle.seekToEnd()
    }
  }

  deinit { try? handle.close() }
}
