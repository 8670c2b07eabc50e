import Foundation
import OpsTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a file opsview writes in one piece goes (an export, `play --save-actions`): standard
/// output, or FILE through a temporary file beside it that is renamed over FILE only once complete,
/// so FILE is never left half-written. Everything about the path is checked when the command
/// starts, before any work:
///
/// - the temporary file has an unpredictable name and is created exclusively (`mkstemp`: a name
///   planted beforehand, a symbolic link included, is never followed), in FILE's directory, and is
///   removed if opsview is interrupted;
/// - a special file (`/dev/null`, a FIFO, a terminal) is written in place, never replaced;
/// - an input of the command (the recording or scenario being read) is never written over;
/// - an existing file is replaced only when the command's purpose is to write it (`export -o`) or
///   the user said `--force`.
final class OutputFile {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let path: String?
  private var temporary: String?
  private var descriptor: Int32 = -1

  /// nil or "-": standard output. `replacing`: whether an existing regular file may be replaced
  /// (else the failure names `force`, the flag that allows it). `inputs`: files the command reads.
  init(
    _ path: String?, replacing: Bool = true, force: String = "--force", inputs: [String] = []
  ) throws(Failure) {
    guard let given = path, given != "-" else {
      self.path = nil
      return
    }
    func failure(_ why: String) -> Failure {
      Failure(description: "cannot write '\(given)': \(why)")
    }
    // A symbolic link is written through, never replaced: its target is the file (replacing the
    // link would break it, `/dev/stdout` included).
    var path = given
    var linkInfo = stat()
    if lstat(given, &linkInfo) == 0, linkInfo.st_mode & S_IFMT == S_IFLNK {
      if let resolved = realpath(given, nil) {
        path = String(cString: resolved)
        free(resolved)
      } else if errno == ENOENT, stat(given, &linkInfo) != 0 {
        throw failure("it is a symbolic link to a file that does not exist")
      } else {
        // A link with no path behind it (a pipe or a deleted file behind /proc/self/fd/N):
        // written in place.
        descriptor = open(given, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        self.path = given
        return
      }
    }
    self.path = path
    var info = stat()
    if stat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind == S_IFDIR { throw failure("it is a directory") }
      if let input = inputs.first(where: { Self.isSameFile($0, info) }) {
        throw failure(
          input == path
            ? "it is the input being read; name another file"
            : "it is the input being read ('\(input)'); name another file")
      }
      if kind != S_IFREG {
        // A device, a FIFO, a socket: written in place (replacing /dev/null with a regular file
        // would break the system for everyone).
        descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        return
      }
      if !replacing {
        throw failure(
          "it exists, and opsview does not overwrite a file it was not asked to: name a new file, "
            + "or add \(force) to replace it")
      }
    } else if errno != ENOENT {
      throw failure(String(cString: strerror(errno)))
    }
    let parent = (path as NSString).deletingLastPathComponent
    let directory = parent.isEmpty ? "." : parent
    let name = (path as NSString).lastPathComponent
    var template = Array("\(directory)/.\(name).opsview-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw failure(
        errno == ENOENT
          ? "the directory '\(directory)' does not exist" : String(cString: strerror(errno)))
    }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    descriptor = fd
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    self.temporary = temporary
    SignalGuard.setCleanupPath(temporary)
    // mkstemp makes it 0600: give it the mode the file has, or a new file's usual one.
    let mode: mode_t
    if info.st_mode & S_IFMT == S_IFREG {
      mode = info.st_mode & 0o7777
    } else {
      let mask = umask(0o022)
      umask(mask)
      mode = 0o666 & ~mask
    }
    fchmod(fd, mode)
  }

  deinit { discard() }

  /// Whether `path` names the file `info` describes (the same device and inode).
  private static func isSameFile(_ path: String, _ info: stat) -> Bool {
    var other = stat()
    return stat(path, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino
  }

  /// Writes everything and puts it in place.
  func commit(bytes: [UInt8]) throws(Failure) {
    guard let path else {
      StandardOutput.write(bytes)
      return
    }
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += n
      }
    }
    if failure == 0, close(descriptor) != 0 { failure = errno }
    descriptor = -1
    if failure == 0, let temporary, rename(temporary, path) != 0 { failure = errno }
    guard failure == 0 else {
      discard()
      throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(failure)))")
    }
    if temporary != nil {
      temporary = nil
      SignalGuard.setCleanupPath(nil)
    }
  }

  /// Removes the temporary file of an export that did not complete.
  func discard() {
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    if let temporary {
      unlink(temporary)
      self.temporary = nil
      SignalGuard.setCleanupPath(nil)
    }
  }
}
