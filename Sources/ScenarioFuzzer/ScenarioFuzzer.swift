import Foundation
import FuzzHarness
import OpsScenarios

/// The scenario loader under libFuzzer: every input must load or be refused with problems, never
/// crash, hang or trap. Built by `.ci/fuzz` with `-sanitize=fuzzer -D FUZZING`, where `main` hands
/// over to libFuzzer's driver; in an ordinary build this is a replayer that loads every file given
/// (the seed corpus in Fuzz/corpus, or crash reproducers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(bytes: data, count: size)
  let text: String
  do {
    text = try ScenarioLoader.decodeText(bytes, file: "fuzz.yaml")
  } catch {
    return 0
  }
  if let scenario = try? ScenarioLoader.parse(text, file: "fuzz.yaml", defaultID: "fuzz") {
    // What the CLI does next: build the runtime and run a bounded while.
    let runtime = scenario.makeRuntime(recording: false)
    var steps = 0
    while steps < 10_000, runtime.step() { steps += 1 }
  }
  return 0
}

@main
enum Fuzz {
  static func main() {
    FuzzHarness.main(tool: "ScenarioFuzzer", verb: "loads") { data, size in
      guard let data else { return 0 }
      return fuzzScenario(data, size)
    }
  }
}
