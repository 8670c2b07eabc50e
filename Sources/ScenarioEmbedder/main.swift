// Build tool: turns the top-level Scenarios/*.yaml files into one Swift source, so the built-in
// scenarios travel inside the binary wherever it is copied.
import Foundation

let args = CommandLine.arguments.dropFirst()
guard let output = args.last else {
  FileHandle.standardError.write(Data("usage: ScenarioEmbedder INPUT.yaml... OUTPUT.swift\n".utf8))
  exit(2)
}
var source = "// Generated from Scenarios/*.yaml by ScenarioEmbedder. Do not edit.\n"
source += "enum EmbeddedScenarios {\n  static let files: [(name: String, text: String)] = [\n"
for path in args.dropLast().sorted() {
  let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  let text = try String(contentsOfFile: path, encoding: .utf8)
  // A raw string with enough #s that no scenario text can close it early.
  var hashes = "#"
  while text.contains("\"" + hashes) { hashes += "#" }
  source += "    (\"\(name)\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
}
source += "  ]\n}\n"
try source.write(toFile: output, atomically: true, encoding: .utf8)
