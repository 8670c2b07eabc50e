import Foundation
import OpsBoard
import OpsExport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `play --record FILE`: the board's present as a recording, written as it happens (a header line,
/// then one event a line). A restart, or time travel's "resume from here", starts the present again:
/// the file is cut back to its header and the present written anew, so it always holds one run.
///
/// FILE is checked when the command starts: a file that exists is not overwritten without `force`
/// (the user may have named the wrong one), an input of the command (the scenario being played) is
/// never written over, and a special file (`/dev/null`, a FIFO) is written in place.
final class RecordingFile {
  private let handle: FileHandle
  private let headerLength: UInt64
  /// A regular file, which a restart cuts back to its header (a FIFO cannot be).
  private let cuttable: Bool

  init(path: String, header: RecordingHeader, force: Bool = false, inputs: [String] = [])
    throws(OutputFile.Failure)
  {
    func failure(_ why: String) -> OutputFile.Failure {
      OutputFile.Failure(description: "cannot write the recording '\(path)': \(why)")
    }
    var info = stat()
    let fd: Int32
    if stat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind == S_IFDIR { throw failure("it is a directory") }
      for input in inputs {
        var other = stat()
        if stat(input, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
          throw failure("it is the scenario being played; name another file")
        }
      }
      if kind == S_IFREG && !force {
        throw failure(
          "it exists, and opsview does not overwrite a file it was not asked to: name a new file, "
            + "or add --force to replace it")
      }
      fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | (kind == S_IFREG ? O_TRUNC : 0))
      cuttable = kind == S_IFREG
    } else {
      // Created here, exclusively: nothing planted meanwhile (a link) is followed.
      fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
      cuttable = true
    }
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT {
        let parent = (path as NSString).deletingLastPathComponent
        throw failure("the directory '\(parent.isEmpty ? "." : parent)' does not exist")
      }
      throw failure(String(cString: strerror(code)))
    }
    handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let line = Data((header.jsonLine + "\n").utf8)
    do {
      try handle.write(contentsOf: line)
    } catch {
      throw failure(reasonText(error))
    }
    headerLength = UInt64(line.count)
  }

  func record(_ change: PresentChange) {
    // A full disk must not stop the board: the recording is then incomplete, not the run.
    switch change {
    case .event(let event):
      try? handle.write(contentsOf: Data((event.jsonLine + "\n").utf8))
    case .reset:
      guard cuttable else { return }
      try? handle.truncate(atOffset: headerLength)
      _ = try? handle.seekToEnd()
    }
  }
}

/// A short reason for a Foundation error: its own description is a dump of its domain and code
/// (`Error Domain=NSCocoaErrorDomain Code=512 "(null)"`).
func reasonText(_ error: any Error) -> String {
  let ns = error as NSError
  if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
    underlying.domain == NSPOSIXErrorDomain
  {
    return String(cString: strerror(Int32(underlying.code)))
  }
  if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
  return ns.localizedDescription
}
