import Foundation
import OpsEngine
import OpsEvents
import Synchronization
import Testing

@testable import OpsScenarios

@Suite("opsview code and verify share one TimedOperation")
struct ProgramHelpersTests {
  /// The helper file as it is on disk, beside the sources this test was built from.
  static func helperFileOnDisk() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return try String(
      contentsOf: root.appending(path: "Sources/OpsScenarios/Printed/ProgramHelpers.swift"),
      encoding: .utf8)
  }

  @Test func theEmbeddedTextIsTheCompiledFileByteForByte() throws {
    let onDisk = try Self.helperFileOnDisk()
    #expect(onDisk.contains("final class TimedOperation: Operation"))
    #expect(Array(ProgramHelpersSource.text.utf8) == Array(onDisk.utf8))
  }

  @Test func everyProgramCarriesThatTextWhole() throws {
    let onDisk = try Self.helperFileOnDisk()
    for scenario in Catalog.all.prefix(8) {
      #expect(SwiftProgram(scenario).source.contains(onDisk), "\(scenario.id)")
    }
  }

  @Test func verifyRunsTheOperationCodeWritesAndSeesItsStartsThroughTheClocksHook() throws {
    let scenario = try parseScenario(
      """
      queues: [{name: q, maxConcurrent: 1}]
      operations:
        - {name: a, work: 1}
        - {name: b, work: 1, completion: true}
      """)
    let seen = Mutex<[String]>([])
    let clock = ScenarioClock(scale: 0.01) { _, what, subject in
      seen.withLock { $0.append("\(what) \(subject)") }
    }
    let b = FoundationRun.operation(scenario.operations[1].spec, clock: clock)
    #expect(b.name == "b" && b.work == 1 && b.completionBlock != nil)
    let queue = OperationQueue()
    queue.addOperation(b)
    queue.waitUntilAllOperationsAreFinished()
    #expect(seen.withLock { Array($0.prefix(2)) } == ["start b", "finish b"])
  }
}
