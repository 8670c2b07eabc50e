import Foundation
import OpsTestSupport
import Testing

@testable import OpsScenarios

/// The fuzzer's seed corpus (Fuzz/corpus) in every ordinary test run: each input loads or is refused
/// with problems, and one that loads can be run.
@Suite struct FuzzCorpusTests {
  static let corpus = SeedCorpus("Fuzz/corpus")
  static var seeds: [String] { corpus.seeds }

  @Test func thereIsASmallSeedCorpus() throws {
    #expect(Self.seeds.count >= 10)
    #expect(try Self.corpus.oversized().isEmpty)
  }

  @Test(arguments: FuzzCorpusTests.seeds)
  func seedLoadsOrIsRefusedWithProblems(_ name: String) throws {
    let data = try Self.corpus.data(name)
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
