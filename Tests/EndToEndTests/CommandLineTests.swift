import Foundation
import Testing

/// Runs the built `opsview` with arguments, no terminal, and collects what it printed.
func opsview(_ arguments: [String], cwd: String? = nil) throws -> (
  status: Int32, out: String, err: String
) {
  let binary = try #require(OpsviewBinary.path, "opsview was not found; run `swift build` first")
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = arguments
  if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  // Read stderr on the side so neither pipe can fill up and block the child.
  nonisolated(unsafe) var errData = Data()
  let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
  reader.start()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !reader.isFinished { usleep(1000) }
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}

/// The directory for the files this process's tests write, removed as the process exits (the tests
/// run in parallel in one process, so no test may remove it earlier).
let scratchDirectory: URL = {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("opsview-cli-\(getpid())")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  atexit { try? FileManager.default.removeItem(at: scratchDirectory) }
  return dir
}()

func temporaryFile(_ name: String, _ text: String) throws -> String {
  let url = scratchDirectory.appendingPathComponent(name)
  try text.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

@Suite struct CommandLineTests {
  @Test func listShowsEveryBuiltInScenarioFromAnyDirectory() throws {
    let r = try opsview(["list"], cwd: "/")
    #expect(r.status == 0)
    let names = r.out.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    #expect(names.count >= 13)
    #expect(names.contains("tour") && names.contains("deadlock") && names.contains("stress"))
  }

  @Test func traceIsByteIdenticalAcrossRuns() throws {
    for format in ["text", "jsonl"] {
      let a = try opsview(["trace", "tour", "--format", format])
      let b = try opsview(["trace", "tour", "--format", format])
      #expect(a.status == 0)
      #expect(a.out == b.out)
      #expect(a.out.count > 1000)
    }
  }

  @Test func jsonlLinesCarryTheContractKeys() throws {
    let r = try opsview(["trace", "dependencies", "--format", "jsonl"])
    let lines = r.out.split(separator: "\n")
    for (i, line) in lines.enumerated() {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["seq"] as? Int == i + 1)
      #expect(object["time"] is NSNumber && object["type"] is String)
    }
    #expect(lines.first?.hasPrefix(#"{"seq":1,"time":0,"type":"queueAdded""#) == true)
  }

  @Test func traceUntilStopsEarlyAndExplainSaysWhy() throws {
    let r = try opsview(["trace", "dependencies", "--until", "2", "--explain"])
    #expect(r.status == 0)
    #expect(
      r.out.contains("why") && r.out.contains("decode")
        && r.out.contains("waiting for its dependency download"))
    #expect(r.out.contains("stopped at 2.000s"))
    #expect(!r.out.contains("upload       didStart"))
  }

  @Test func checkAcceptsGoodFilesAndWarnsAboutCycles() throws {
    let r = try opsview(["check", "deadlock", "tour"])
    #expect(r.status == 0)
    #expect(r.out.contains("deadlock: warning: dependency cycle"))
  }

  @Test func checkReportsEveryProblemWithItsPlaceAndExitsOne() throws {
    let path = try temporaryFile(
      "bad.yaml",
      """
      queues:
        - name: net
      operations:
        - name: a
          dependsOn: [b]
        - name: a
          work: -1
      """)
    let r = try opsview(["check", path])
    #expect(r.status == 1)
    #expect(
      r.out.contains("\(path):5:5: error: unknown key 'dependsOn'")
        && r.out.contains("did you mean 'dependencies'?"))
    #expect(r.out.contains("duplicate"))
  }

  @Test func unknownScenarioIsAScenarioErrorWithASuggestion() throws {
    let r = try opsview(["trace", "tuor"])
    #expect(r.status == 1)
    #expect(r.err.contains("tour"))
  }

  @Test func usageErrorsExitTwo() throws {
    #expect(try opsview(["trace", "tour", "--format", "xml"]).status == 2)
    #expect(try opsview(["list", "extra"]).status == 2)
    #expect(try opsview(["play", "tour", "--speed", "-3"]).status == 2)
  }

  @Test func helpAndVersionExitZero() throws {
    let help = try opsview(["--help"])
    #expect(help.status == 0 && help.out.contains("play") && help.out.contains("trace"))
    for sub in ["play", "trace", "list", "check"] {
      #expect(try opsview([sub, "--help"]).status == 0)
    }
    #expect(
      try opsview(["--version"]).out.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
  }

  @Test func binaryJunkIsRejectedCleanly() throws {
    let url = scratchDirectory.appendingPathComponent("junk.yaml")
    try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }).write(to: url)
    let r = try opsview(["trace", url.path])
    #expect(r.status == 1)
    #expect(r.err.contains("junk.yaml"))
  }
}

@Suite("A mistyped subcommand")
struct MistypedCommandTests {
  @Test(arguments: [("lst", "list"), ("exprot", "export"), ("chek", "check"), ("tarce", "trace")])
  func isNamedWithWhatWasMeant(_ typo: String, _ meant: String) throws {
    let r = try opsview([typo, "tour"])
    #expect(r.status == 2)
    #expect(r.err.contains("unknown command '\(typo)' — did you mean '\(meant)'?"), "\(r.err)")
  }

  @Test func aBuiltInScenarioNameStillPlays() throws {
    // `opsview tour --help` is `play tour --help`: a scenario name is not a typo.
    let r = try opsview(["tour", "--help"])
    #expect(r.status == 0)
    #expect(r.out.contains("Play a scenario"), "\(r.out)")
  }
}

@Suite("Shell completion of scenarios and recordings")
struct CompletionTests {
  /// What bash's completion (the script `opsview --generate-completion-script bash` prints)
  /// offers for the command line `words`, in `cwd`.
  func completions(_ words: String, cwd: String) throws -> [String] {
    let binary = try #require(OpsviewBinary.path)
    let script = """
      source <("$OPSVIEW" --generate-completion-script bash)
      COMP_WORDS=(opsview \(words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
      COMP_LINE="opsview \(words)"; COMP_POINT=${#COMP_LINE}
      _opsview opsview "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}" >/dev/null 2>&1
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    var environment = ProcessInfo.processInfo.environment
    environment["OPSVIEW"] = binary
    // The script calls the program by name.
    environment["PATH"] =
      URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":"
      + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: cwd)
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  @Test func builtInNamesFilesAndRecordingsComplete() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "opsview-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for file in ["lesson.yaml", "run.jsonl", "notes.txt"] {
      _ = FileManager.default.createFile(
        atPath: dir.appendingPathComponent(file).path, contents: nil)
    }
    #expect(try completions("play to", cwd: dir.path) == ["tour"])
    #expect(try completions("play le", cwd: dir.path) == ["lesson.yaml"])
    #expect(try completions("check l", cwd: dir.path) == ["lifecycle", "lesson.yaml"])
    #expect(try completions("replay r", cwd: dir.path) == ["run.jsonl"])
    #expect(try completions("trace ru", cwd: dir.path) == ["run.jsonl"])
    #expect(try completions("export n", cwd: dir.path).isEmpty)
  }
}
