import Foundation
import OpsScenarios

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a file's bytes differ from the last look (`play --watch`). Comparing the contents, not the
/// modification time, catches two saves within the file system's time resolution and ignores a touch.
/// A file larger than a scenario may be is not read at all (a 2 GB file swapped in was read into
/// memory at every key): its size, inode and modification time stand for it, and loading it says
/// "file too large".
final class FileChanges {
  private enum Look: Equatable {
    case missing
    case contents(Data)
    /// Too large to read: what the file system says of it.
    case large(size: Int64, inode: UInt64, modified: Int64, nanoseconds: Int)
  }

  private let path: String
  private var last: Look

  init(path: String) {
    self.path = path
    last = Self.look(path)
  }

  func changed() -> Bool {
    let now = Self.look(path)
    defer { last = now }
    return now != last
  }

  private static func look(_ path: String) -> Look {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .missing }
    if info.st_size > ScenarioLoader.maxFileSize {
      return .large(
        size: Int64(info.st_size), inode: UInt64(info.st_ino), modified: Int64(info.st_mtim.tv_sec),
        nanoseconds: Int(info.st_mtim.tv_nsec))
    }
    guard let handle = FileHandle(forReadingAtPath: path) else { return .missing }
    defer { try? handle.close() }
    // One byte past the limit at most: the file may grow between the look and the read.
    let data = (try? handle.read(upToCount: ScenarioLoader.maxFileSize + 1)) ?? Data()
    if data.count > ScenarioLoader.maxFileSize {
      return .large(
        size: Int64(data.count), inode: UInt64(info.st_ino), modified: 0, nanoseconds: 0)
    }
    return .contents(data)
  }
}
