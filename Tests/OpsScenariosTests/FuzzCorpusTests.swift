import Foundation
import Testing

@testable import OpsScenarios

/// The fuzzer's seed corpus (Fuzz/corpus) in every ordinary test run: each input loads or is refused
/// with problems, and one that loads can be run.
@Suite struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Fuzz/corpus")

  static var seeds: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
  }

  @Test func thereIsASmallSeedCorpus() throws {
    #expect(Self.seeds.count >= 10)
    for name in Self.seeds {
      let size =
        try FileManager.default.attributesOfItem(
          atPath: Self.corpus.appending(path: name).path)[.size] as? Int
      #expect((size ?? 0) < 16_384, "\(name) is too large for a seed")
    }
  }

  @Test(arguments: FuzzCorpusTests.seeds)
  func seedLoadsOrIsRefusedWithProblems(_ name: String) throws {
    let data = try Data(contentsOf: Self.corpus.appending(path: name))
    guard let text = try? ScenarioLoader.decodeText(data, file: name) else { return }
    do {
      let scenario = try ScenarioLoader.parse(text, file: name, defaultID: "seed")
      let runtime = scenario.makeRuntime(recording: false)
      runtime.run(until: 1000)
    } catch let error as ScenarioError {
      #expect(!error.problems.isEmpty)
    }
  }
}
