import Foundation
import OpsInput
import Synchronization

extension ScenarioLoader {
  /// What a scenario read from standard input (`-`) is called in its messages
  /// (`standard input:3:5: error: …`) and in its `source`.
  public static let standardInputName = "standard input"

  /// Standard input can be read once: its text is kept for whoever needs the source again (a
  /// recording's header, `--save-actions`), as a file would be read again.
  static let standardInputText = Mutex<String?>(nil)

  /// Reads a scenario from `fd` (standard input) with the bounds of a file: at most `maxFileSize`
  /// bytes, strict UTF-8, then the same parse. `prefix`: bytes already read from it (to decide
  /// whether it holds a scenario or a recording).
  public static func load(fileDescriptor fd: Int32, prefix: [UInt8] = []) throws -> Scenario {
    let name = standardInputName
    var data = Data(prefix)
    struct TooLarge: Error {}
    let outcome: (bytes: Int, error: Int32?)
    do {
      outcome = try InputFile.stream(fd, chunk: 1 << 16) { (chunk) throws(TooLarge) in
        // At most one byte past the limit is kept: that is enough to know it is over.
        data.append(contentsOf: chunk.prefix(maxFileSize + 1 - data.count))
        if data.count > maxFileSize { throw TooLarge() }
      }
    } catch {
      throw ScenarioError(problems: [ScenarioProblem(file: name, message: tooLarge(nil))])
    }
    if let code = outcome.error {
      throw ScenarioError(problems: [
        ScenarioProblem(file: name, message: "cannot be read (\(InputFile.reason(code)))")
      ])
    }
    if data.count > maxFileSize {
      throw ScenarioError(problems: [ScenarioProblem(file: name, message: tooLarge(nil))])
    }
    let text = try decodeUTF8(data, file: name)
    standardInputText.withLock { $0 = text }
    return try parse(text, file: name, defaultID: "stdin")
  }
}
