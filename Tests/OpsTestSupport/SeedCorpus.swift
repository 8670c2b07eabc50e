import Foundation

/// A fuzzer's seed corpus in the repository (`Fuzz/corpus`, `Fuzz/recordings`), which ordinary test
/// runs read so every seed is checked without the fuzzer.
public struct SeedCorpus: Sendable {
  /// Every seed is smaller than this: seeds are small inputs the fuzzer mutates, not test data.
  public static let sizeLimit = 16_384

  public let folder: URL

  /// `path` relative to the repository's root.
  public init(_ path: String) {
    folder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: path)
  }

  /// The seeds' file names, sorted.
  public var seeds: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  public func data(_ seed: String) throws -> Data {
    try Data(contentsOf: folder.appending(path: seed))
  }

  /// Seeds of `sizeLimit` bytes or more, with their sizes.
  public func oversized() throws -> [(name: String, size: Int)] {
    try seeds.compactMap { name in
      let size =
        try FileManager.default.attributesOfItem(atPath: folder.appending(path: name).path)[.size]
        as? Int ?? 0
      return size >= Self.sizeLimit ? (name, size) : nil
    }
  }
}
