import Foundation
import OpsEngine

/// A recording: JSON lines, each an event as `opsview trace --format jsonl` prints it, after an
/// optional header line (a JSON object with a `format` key, which may name the scenario and the event
/// format `version` it was written with; see `RecordingHeader`).
public struct Recording: Sendable {
  public var events: [Event]
  /// From the header, when it says: `scenario`, `title`, `notes`.
  public var scenario: String?
  public var title: String?
  public var notes: String?
  /// The scenario's source text, when the header carries it (`opsview play --record` does).
  public var source: String?
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
    // Events pass through the board onto a terminal: nothing may hide a control sequence in a name.
    let decoder = JSONDecoder()
    var lineNumber = 0
    var start = data.startIndex
    while start < data.endIndex {
      let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
      lineNumber += 1
      var line = data[start..<end]
      start = end < data.endIndex ? data.index(after: end) : end
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.count > maxLineBytes {
        throw RecordingError(
          description:
            "\(name):\(lineNumber): a line of \(line.count) bytes; no event is longer than \(maxLineBytes)"
        )
      }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      if recording.events.isEmpty, lineNumber == 1, let header = header(line) {
        try checkVersion(header["version"], name: name)
        recording.scenario = header["scenario"] as? String
        recording.title = header["title"] as? String
        recording.notes = header["notes"] as? String
        recording.source = header["source"] as? String
        continue
      }
      if let why = controlCharacter(in: line) {
        throw RecordingError(description: "\(name):\(lineNumber): \(why)")
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

  /// Longer lines are refused before they are parsed (an event is well under a kilobyte).
  public static let maxLineBytes = 1 << 20

  /// A header's `version` must be the event format this opsview reads: an older recording's events
  /// have no causes to show, a newer one's may have types this one does not know.
  private static func checkVersion(_ value: Any?, name: String) throws {
    guard let value else { return }
    guard let version = value as? Int else {
      throw RecordingError(description: "\(name):1: the header's version is not a number")
    }
    if version > EventFormat.version {
      throw RecordingError(
        description:
          "\(name): recorded with event format version \(version), newer than this opsview's version \(EventFormat.version): update opsview to read it"
      )
    }
    if version < EventFormat.version {
      throw RecordingError(
        description:
          "\(name): recorded with event format version \(version); this opsview reads version \(EventFormat.version) only (its state events need causes): record the run again"
      )
    }
  }

  /// A raw control byte, or a JSON escape of one, in an event line.
  static func controlCharacter(in line: Data.SubSequence) -> String? {
    let bytes = Array(line)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b < 0x20 && b != 0x09 || b == 0x7f { return "a control character (byte \(b)) in the line" }
      if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
        let e = bytes[i + 1]
        if "bfnrt".utf8.contains(e) {
          return "a control character (\\\(Character(UnicodeScalar(e)))) in a string"
        }
        if e == UInt8(ascii: "u"), i + 5 < bytes.count,
          let v = Int(String(decoding: bytes[(i + 2)...(i + 5)], as: UTF8.self), radix: 16),
          v < 0x20 || (0x7f...0x9f).contains(v)
        {
          return "a control character (U+\(String(format: "%04X", v))) in a string"
        }
        i += 2
        continue
      }
      i += 1
    }
    return nil
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
