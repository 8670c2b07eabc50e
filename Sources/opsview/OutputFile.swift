import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where an export goes: standard output, or FILE through a temporary file beside it that is renamed
/// over FILE only once complete, so FILE is never left half-written. The temporary file is created
/// first, so a path that cannot be written fails before any work.
final class OutputFile {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private let path: String?
  private var temporary: String?
  private var descriptor: Int32 = -1

  /// nil or "-": standard output.
  init(_ path: String?) throws(Failure) {
    guard let path, path != "-" else {
      self.path = nil
      return
    }
    self.path = path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw Failure(description: "cannot write '\(path)': it is a directory")
    }
    let url = URL(fileURLWithPath: path)
    let temporary =
      url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).opsview-\(getpid()).tmp"
      ).path
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(errno)))")
    }
    self.temporary = temporary
  }

  deinit { discard() }

  /// Writes everything and puts it in place.
  func commit(bytes: [UInt8]) throws(Failure) {
    guard let path, let temporary else {
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
    if failure == 0, rename(temporary, path) != 0 { failure = errno }
    guard failure == 0 else {
      discard()
      throw Failure(description: "cannot write '\(path)': \(String(cString: strerror(failure)))")
    }
    self.temporary = nil
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
    }
  }
}
