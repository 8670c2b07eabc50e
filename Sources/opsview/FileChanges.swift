import Foundation

/// Whether a file's bytes differ from the last look (`play --watch`). Comparing the contents, not the
/// modification time, catches two saves within the file system's time resolution and ignores a touch.
final class FileChanges {
  private let path: String
  private var last: Data?

  init(path: String) {
    self.path = path
    last = FileManager.default.contents(atPath: path)
  }

  func changed() -> Bool {
    let now = FileManager.default.contents(atPath: path)
    defer { last = now }
    return now != last
  }
}
