import ArgumentParser
import Foundation
import OpsScenarios

/// Shell completion for scenario arguments: the built-in names, then the files (scenarios, or
/// recordings where a command reads them) and folders that start with the word being typed.
enum ScenarioCompletion {
  static let scenarios = CompletionKind.custom { _, _, prefix in
    candidates(prefix, builtIns: true, extensions: ["yaml", "yml", "json"])
  }
  static let scenariosAndRecordings = CompletionKind.custom { _, _, prefix in
    candidates(prefix, builtIns: true, extensions: ["yaml", "yml", "json", "jsonl"])
  }
  static let recordings = CompletionKind.custom { _, _, prefix in
    candidates(prefix, builtIns: false, extensions: ["jsonl"])
  }

  static func candidates(_ prefix: String, builtIns: Bool, extensions: Set<String>) -> [String] {
    let names = builtIns ? Catalog.names.filter { $0.hasPrefix(prefix) } : []
    let slash = prefix.lastIndex(of: "/")
    let folder = slash.map { String(prefix[...$0]) } ?? ""
    let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    let listed =
      (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    var files: [String] = []
    for entry in listed.sorted() where entry.hasPrefix(start) && !entry.hasPrefix(".") {
      var isFolder: ObjCBool = false
      let path = folder + entry
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
      if isFolder.boolValue {
        files.append(path + "/")
      } else if extensions.contains(URL(fileURLWithPath: entry).pathExtension.lowercased()) {
        files.append(path)
      }
    }
    return names + files
  }
}
