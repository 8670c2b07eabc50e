import Foundation
import OpsEngine

/// A recording: JSON lines, each an event as `opsview trace --format jsonl` prints it, after an
/// optional header line (a JSON object with a `format` key, which may name the scenario).
public struct Recording: Sendable {
  public var events: [Event]
  /// From the header, when it says: `scenario`, `title`, `notes`.
  public var scenario: String?
  public var title: String?
  public var notes: String?
}

/// Why a recording cannot be read; `description` is the message for people.
public struct RecordingError: Error, CustomStringConvertible {
  public let description: String
}

public enum RecordingReader {
  /// Reads and decodes a recording file. Throws `RecordingError` naming the file and, for a bad
  /// line, its line number.
  public static func read(path: String) throws -> Recording {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw RecordingError(description: "\(path): cannot read the recording: \(reason(error))")
    }
    return try parse(data, name: path)
  }

  public static func parse(_ data: Data, name: String) throws -> Recording {
    var recording = Recording(events: [])
    let decoder = JSONDecoder()
    var lineNumber = 0
    var start = data.startIndex
    while start < data.endIndex {
      let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
      lineNumber += 1
      var line = data[start..<end]
      start = end < data.endIndex ? data.index(after: end) : end
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      if recording.events.isEmpty, lineNumber == 1, let header = header(line) {
        recording.scenario = header["scenario"] as? String
        recording.title = header["title"] as? String
        recording.notes = header["notes"] as? String
        continue
      }
      do {
        recording.events.append(try decoder.decode(Event.self, from: Data(line)))
      } catch {
        throw RecordingError(
          description: "\(name):\(lineNumber): not an event of the trace format: \(reason(error))")
      }
    }
    if recording.events.isEmpty {
      throw RecordingError(description: "\(name): the recording has no events")
    }
    return recording
  }

  /// The first line is a header when it is a JSON object with a `format` key.
  private static func header(_ line: Data) -> [String: Any]? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
      object["format"] != nil
    else { return nil }
    return object
  }

  /// A short reason: DecodingError's own description is a dump of its context.
  static func reason(_ error: any Error) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
      return keys.isEmpty ? "" : " (at \(keys))"
    }
    switch error {
    case DecodingError.dataCorrupted(let c):
      return
        (c.underlyingError.map { _ in "not valid JSON" } ?? c.debugDescription) + path(c)
    case DecodingError.keyNotFound(let key, let c):
      return "missing key '\(key.stringValue)'" + path(c)
    case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
      return c.debugDescription + path(c)
    case let error as CocoaError:
      if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
        return String(cString: strerror(underlying.code.rawValue))
      }
      return error.localizedDescription
    default:
      return "\(error)"
    }
  }
}
