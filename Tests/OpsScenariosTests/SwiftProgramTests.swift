import Foundation
import OpsEngine
import OpsEvents
import Testing

@testable import OpsScenarios

/// Runs a program to its end and returns what it printed.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func swiftcPath() -> String? {
  let candidates =
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map {
      "\($0)/swiftc"
    }
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite("opsview code: the scenario as a Swift program on Foundation's OperationQueue")
struct SwiftProgramTests {
  /// The built-in scenarios Foundation (with the generated helpers) reproduces entirely, small
  /// enough to compile quickly.
  static let queueLevel = Catalog.all.filter {
    SwiftProgram($0).isQueueLevel && $0.operations.count <= 100
      && $0.operations.allSatisfy { $0.spec.work.finishes }
  }.map(\.id)

  @Test func queueLevelScenariosAreTheOnesWithoutConditionsExclusivityOrGroups() {
    #expect(
      Set(Self.queueLevel) == [
        "priorities", "serial-vs-concurrent", "cancellation", "deadlock", "dependencies", "timeout",
      ])
  }

  @Test(
    .enabled(if: swiftcPath() != nil, "swiftc is not on PATH"),
    arguments: queueLevel)
  func theCompiledProgramStartsWhatTheEngineStartsInTheSameOrder(_ name: String) throws {
    let scenario = try #require(Catalog.named(name))
    let dir = FileManager.default.temporaryDirectory.appending(
      path: "opsview-code-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appending(path: "\(SwiftIdentifier.make(name)).swift").path
    try SwiftProgram(scenario).source.write(toFile: file, atomically: true, encoding: .utf8)
    let binary = dir.appending(path: "program").path
    let compiled = try run(swiftcPath()!, ["-O", "-swift-version", "6", file, "-o", binary])
    try #require(compiled.status == 0, "swiftc failed:\n\(compiled.output)")
    #expect(!compiled.output.contains("warning:"), "\(compiled.output)")
    // 0.2 real seconds per scenario second: scheduling delays stay well under the tolerance, except
    // on a machine so busy that a start waits for a thread; a run that is only late (what `verify`
    // tells apart) is run again, up to five runs.
    let engine = StartGroups.engine(scenario)
    var ran = try run(binary, ["0.2"])
    var program = StartGroups.program(ran.output)
    let onlyLate = { (program: StartGroups) in
      Verification(scenario: name, engine: engine, foundation: program, notChecked: [], scale: 0.2)
        .differsOnlyByLateness
    }
    for _ in 1..<5 where ran.status == 0 && onlyLate(program) {
      ran = try run(binary, ["0.2"])
      program = StartGroups.program(ran.output)
    }
    #expect(ran.status == 0, "\(ran.output)")
    #expect(program == engine, "engine \(engine)\nprogram \(program)\n\(ran.output)")
    for (p, e) in zip(program.groups, engine.groups) {
      #expect(
        p.time >= e.time - 0.05 && p.time <= e.time + 0.3, "\(p.names): \(p.time) vs \(e.time)")
    }
  }

  @Test func whatFoundationLacksIsListedWithItsProcedureKitType() throws {
    let tour = try #require(Catalog.named("tour"))
    let source = SwiftProgram(tour).source
    #expect(source.contains("NOT REPRODUCED with Foundation alone"))
    #expect(
      source.contains(
        "// - banner: mutually exclusive Alert (ProcedureKit's MutuallyExclusive<Alert>)"))
    #expect(source.contains("condition loggedIn"))
    #expect(source.contains("network.isSuspended = true"))
    #expect(source.contains("network.maxConcurrentOperationCount = 3"))
    #expect(source.contains("prefetch.cancel()"))
    #expect(source.contains("warmCache.timeout = 5"))
  }

  @Test func namesBecomeSwiftIdentifiers() {
    #expect(SwiftIdentifier.make("fetch photos") == "fetchPhotos")
    #expect(SwiftIdentifier.make("404") == "_404")
    #expect(SwiftIdentifier.make("default") == "`default`")
    #expect(SwiftIdentifier.make("importAlbum.children") == "importAlbumChildren")
  }
}
