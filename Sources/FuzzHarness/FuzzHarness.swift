import Foundation

/// The `main` both fuzz targets share. Built by `.ci/fuzz` (`-sanitize=fuzzer -D FUZZING`), it hands
/// over to libFuzzer's driver; in an ordinary build it replays the files and folders given (a seed
/// corpus, crash reproducers) through the same entry.
public enum FuzzHarness {
  /// A target's `LLVMFuzzerTestOneInput`.
  public typealias Entry = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

  /// `tool` and `verb` name the replayer in its usage line ("reads each as the fuzzer would").
  public static func main(tool: String, verb: String, entry: Entry) -> Never {
    #if FUZZING
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      exit(runFuzzerDriver(&argc, &argv, entry))
    #else
      let paths = CommandLine.arguments.dropFirst()
      guard !paths.isEmpty else {
        print("usage: \(tool) FILE|DIRECTORY... (\(verb) each as the fuzzer would)")
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
            _ = entry(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)
          }
          count += 1
        }
      }
      print("replayed \(count) inputs")
      exit(0)
    #endif
  }
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
#endif
