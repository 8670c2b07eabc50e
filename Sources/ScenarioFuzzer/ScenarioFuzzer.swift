import Foundation
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

#if FUZZING
  /// libFuzzer's entry point for programs that have their own `main` (SwiftPM names the executable's
  /// entry point itself, so libFuzzer's `main` cannot be used).
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  @main
  enum Fuzz {
    static func main() {
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      exit(
        runFuzzerDriver(&argc, &argv) { data, size in
          guard let data else { return 0 }
          return fuzzScenario(data, size)
        })
    }
  }
#else
  @main
  enum Replay {
    static func main() {
      let paths = CommandLine.arguments.dropFirst()
      guard !paths.isEmpty else {
        print("usage: ScenarioFuzzer FILE|DIRECTORY... (loads each as the fuzzer would)")
        exit(2)
      }
      var count = 0
      for path in paths {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let files =
          isDirectory.boolValue
          ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
            path + "/" + $0
          } : [path]
        for file in files {
          guard let data = FileManager.default.contents(atPath: file) else { continue }
          data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            _ = fuzzScenario(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)
          }
          count += 1
        }
      }
      print("replayed \(count) inputs")
    }
  }
#endif
