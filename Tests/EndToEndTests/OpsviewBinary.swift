import Foundation

/// Where the built `opsview` is: beside the test bundle (`.build/<triple>/debug/`), else searched
/// under the package's `.build`. `OPSVIEW_BINARY` overrides both.
enum OpsviewBinary {
  static let path: String? = locate()

  private static func locate() -> String? {
    let files = FileManager.default
    if let override = ProcessInfo.processInfo.environment["OPSVIEW_BINARY"] {
      return files.isExecutableFile(atPath: override) ? override : nil
    }
    var candidates: [URL] = []
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(runner.deletingLastPathComponent().appendingPathComponent("opsview"))
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("opsview"))
    candidates.append(
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("opsview"))
    // This file is Tests/EndToEndTests/OpsviewBinary.swift: the package root is three levels up.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    let build = root.appendingPathComponent(".build")
    candidates.append(build.appendingPathComponent("debug/opsview"))
    let triples = (try? files.contentsOfDirectory(atPath: build.path)) ?? []
    for triple in triples.sorted() {
      candidates.append(
        build.appendingPathComponent(triple).appendingPathComponent("debug/opsview"))
    }
    return candidates.map(\.path).first { path in
      var isDirectory: ObjCBool = false
      return files.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        && files.isExecutableFile(atPath: path)
    }
  }
}
