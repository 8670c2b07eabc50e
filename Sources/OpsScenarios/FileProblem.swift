import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a path that cannot be opened as a file cannot, in words: a symbolic-link loop is not "no such
/// file", and a dangling link names what it points to.
enum FileProblem {
  /// Whether there is anything at `path`, even a broken or looping symbolic link.
  static func isPresent(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// nil when `path` names something that exists (whether it can be read is found out later).
  static func missing(_ path: String) -> String? {
    var info = stat()
    if stat(path, &info) == 0 { return nil }
    let reason = errno
    switch reason {
    case ELOOP:
      return "is a symbolic link loop (too many levels of symbolic links), not a scenario file"
    case ENOENT:
      var linkInfo = stat()
      if lstat(path, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        return "is a symbolic link to '\(target)', which does not exist"
      }
      return "no such file"
    case ENOTDIR: return "no such file (a part of the path is not a directory)"
    case EACCES: return "cannot be read (permission denied on the way to it)"
    case ENAMETOOLONG: return "no such file (the path is too long)"
    default: return "cannot be opened (\(String(cString: strerror(reason))))"
    }
  }
}
