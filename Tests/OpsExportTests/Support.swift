import Foundation
import OpsEngine
import OpsEvents
import OpsExport
import OpsScenarios
import Testing

/// A built-in scenario run to its end (or to `until`) on the virtual clock, ready to export.
func exportSource(_ name: String, until: Double? = nil) throws -> ExportSource {
  let scenario = try #require(Catalog.named(name), "no built-in scenario \(name)")
  return exportSource(scenario, until: until)
}

func exportSource(_ scenario: Scenario, until: Double? = nil) -> ExportSource {
  let runtime = scenario.makeRuntime()
  runtime.run(until: until)
  return ExportSource(
    id: scenario.id, title: scenario.title, lesson: scenario.notes, runtime: runtime)
}

/// A scenario whose names contain every character some format treats as syntax.
func hostileScenario() -> Scenario {
  let first = "a\"b<c>&d|e;f#g`h\\i{j}[k]\u{7F}"
  let queue = "q \"one\" <&>"
  return Scenario(
    id: "hostile", title: "Names <that> & \"quotes\" | pipes; #hash `tick`",
    notes: "A <b>lesson</b> with & and `code`.",
    queues: [QueueSpec(name: queue, maxConcurrent: 1), QueueSpec(name: "end", maxConcurrent: 2)],
    operations: [
      ScenarioOperation(
        spec: OperationSpec(name: first, work: WorkScript(duration: 1)), queue: queue),
      ScenarioOperation(
        spec: OperationSpec(name: "end", dependencies: [first], work: WorkScript(duration: 1)),
        queue: "end"),
      ScenarioOperation(
        spec: OperationSpec(name: "o1 --> x", dependencies: ["end"], work: WorkScript(duration: 1)),
        queue: "end"),
      ScenarioOperation(
        spec: OperationSpec(name: "line\nbreak\u{1}ünï → λ", work: WorkScript(duration: 2)),
        queue: "end"),
    ],
    actions: [ScenarioAction(at: 0.5, command: .cancel(operation: "line\nbreak\u{1}ünï → λ"))])
}

/// The path of a program on PATH. Tests that need `dot` or `rsvg-convert` fail without them: CI
/// installs graphviz and librsvg2-bin (.ci/run).
func tool(_ name: String) throws -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  let found = path.split(separator: ":").map { "\($0)/\(name)" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  return try #require(found, "\(name) is not installed (apt-get install graphviz librsvg2-bin)")
}

/// Runs a program with `input` on stdin; returns its exit status, stdout and stderr.
func run(_ program: String, _ arguments: [String], input: String) throws -> (
  status: Int32, out: Data, err: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  // Feed and drain on the side so no pipe fills up and blocks the child.
  let data = Data(input.utf8)
  let writer = Thread {
    stdin.fileHandleForWriting.write(data)
    try? stdin.fileHandleForWriting.close()
  }
  writer.start()
  nonisolated(unsafe) var err = Data()
  let reader = Thread { err = stderr.fileHandleForReading.readDataToEndOfFile() }
  reader.start()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !reader.isFinished || !writer.isFinished { usleep(1000) }
  return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
}
