import Foundation
import OpsEngine
import OpsEvents
import OpsInput

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
  /// Reads and decodes a recording file, a line at a time (a FIFO too: its wait is announced through
  /// `announce`). Throws `RecordingError` naming the file and, for a bad line, its line number.
  /// `progress` is told the bytes read so far and the file's size, after each megabyte.
  public static func read(
    path: String, announce: ((String) -> Void)? = nil,
    progress: ((_ read: Int, _ size: Int?) -> Void)? = nil
  ) throws -> Recording {
    let opened: (fd: Int32, size: Int?)
    do {
      opened = try InputFile.open(path, what: "a recording", announce: announce)
    } catch {
      throw RecordingError(description: "\(path): cannot read the recording: \(error)")
    }
    defer { close(opened.fd) }
    if let size = opened.size, size > maxBytes {
      throw RecordingError(description: "\(path): \(tooLarge(size))")
    }
    return try read(fileDescriptor: opened.fd, name: path, size: opened.size, progress: progress)
  }

  /// Reads a recording from an open descriptor (standard input, a pipe) as it comes, with the same
  /// bounds as a file: nothing is kept but the events decoded, each line is checked as it arrives,
  /// and the first problem stops the reading.
  public static func read(
    fileDescriptor fd: Int32, name: String, size: Int? = nil,
    progress: ((_ read: Int, _ size: Int?) -> Void)? = nil
  ) throws -> Recording {
    var parser = RecordingParser(name: name)
    var reported = 0
    let outcome = try InputFile.stream(fd) { (chunk) throws(RecordingError) in
      try parser.feed(chunk)
      if let progress, parser.bytes - reported >= 1 << 20 {
        reported = parser.bytes
        progress(parser.bytes, size)
      }
    }
    if let code = outcome.error {
      throw RecordingError(
        description:
          "\(name): cannot read the recording after \(outcome.bytes) bytes: \(InputFile.reason(code))"
      )
    }
    return try parser.finish()
  }

  /// Decodes a recording already in memory (as `read` does).
  public static func parse(_ data: Data, name: String) throws -> Recording {
    var parser = RecordingParser(name: name)
    let bytes = [UInt8](data)
    try bytes.withUnsafeBytes { raw in try parser.feed(raw) }
    return try parser.finish()
  }

  /// Longer lines are refused before they are parsed (an event is well under a kilobyte).
  public static let maxLineBytes = 1 << 20
  /// The largest recording read: a million operations' run is about 1.2 GB.
  public static let maxBytes = 1 << 31
  /// The most events a recording may hold (a million operations' run has about 9 million).
  public static let maxEvents = 16_000_000

  static func tooLarge(_ bytes: Int?) -> String {
    let limit = "the limit is \(maxBytes >> 30) GiB"
    guard let bytes else { return "the recording goes on past \(maxBytes >> 30) GiB; \(limit)" }
    return "the recording is \((bytes + (1 << 20) - 1) >> 20) MiB; \(limit)"
  }

  /// A header's `version` must be the event format this opsview reads: an older recording's events
  /// have no causes to show, a newer one's may have types this one does not know.
  static func checkVersion(_ value: Any?, name: String) throws {
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
      if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) {
        return
          "a control character (U+00\(String(bytes[i + 1], radix: 16, uppercase: true))) in the line"
      }
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
  static func header(_ line: Data) -> [String: Any]? {
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

/// The recording format a line at a time: bytes are fed as they come, lines are cut at newlines
/// (a line may span chunks), the first line may be a header, and every event passes the one
/// validator (`EventStreamValidator`) before it is kept.
struct RecordingParser {
  let name: String
  private(set) var recording = Recording(events: [])
  /// Bytes fed so far.
  private(set) var bytes = 0
  private var lineNumber = 0
  /// The start of a line whose end has not come yet.
  private var partial: [UInt8] = []
  private var validator = EventStreamValidator()
  /// Lines read but not yet decoded: decoding (nearly all of the reading's time, `JSONDecoder` on
  /// each line) is done a batch at a time on every core, then the events are validated and kept in
  /// order, so the first problem reported is still the first in the file.
  private var batch: [(number: Int, data: Data)] = []
  static let batchSize = 4_096

  init(name: String) { self.name = name }

  mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(RecordingError) {
    bytes += chunk.count
    if bytes > RecordingReader.maxBytes {
      throw RecordingError(description: "\(name): \(RecordingReader.tooLarge(nil))")
    }
    var start = 0
    let count = chunk.count
    while start < count {
      guard let newline = chunk[start...].firstIndex(of: 0x0A) else {
        partial.append(contentsOf: chunk[start...])
        if partial.count > RecordingReader.maxLineBytes { throw lineTooLong(lineNumber + 1) }
        return
      }
      if partial.isEmpty {
        try line(Data(UnsafeRawBufferPointer(rebasing: chunk[start..<newline])))
      } else {
        partial.append(contentsOf: chunk[start..<newline])
        let whole = Data(partial)
        partial.removeAll(keepingCapacity: true)
        try line(whole)
      }
      start = newline + 1
    }
  }

  /// The recording, once everything is fed.
  mutating func finish() throws(RecordingError) -> Recording {
    if !partial.isEmpty {
      let last = Data(partial)
      partial = []
      try line(last)
    }
    try flush()
    if recording.events.isEmpty {
      throw RecordingError(description: "\(name): the recording has no events")
    }
    return recording
  }

  private func lineTooLong(_ number: Int) -> RecordingError {
    RecordingError(
      description:
        "\(name):\(number): a line of more than \(RecordingReader.maxLineBytes) bytes; no event is that long"
    )
  }

  private mutating func line(_ bytes: Data) throws(RecordingError) {
    lineNumber += 1
    var data = bytes
    if data.last == UInt8(ascii: "\r") { data = data.dropLast() }
    if data.count > RecordingReader.maxLineBytes { throw lineTooLong(lineNumber) }
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    if recording.events.isEmpty, lineNumber == 1, let header = RecordingReader.header(data) {
      try readHeader(header)
      return
    }
    batch.append((lineNumber, data))
    if batch.count >= Self.batchSize { try flush() }
  }

  /// Decodes the lines waiting, in parallel, then validates and keeps their events in order.
  private mutating func flush() throws(RecordingError) {
    guard !batch.isEmpty else { return }
    let lines = batch
    batch.removeAll(keepingCapacity: true)
    let decoded = Self.decode(lines.map(\.data))
    for (i, outcome) in decoded.enumerated() {
      let number = lines[i].number
      switch outcome {
      case .failure(let why):
        throw RecordingError(description: "\(name):\(number): \(why.text)")
      case .success(let event):
        if let why = validator.check(event) {
          throw RecordingError(description: "\(name):\(number): \(why)")
        }
        if recording.events.count >= RecordingReader.maxEvents {
          throw RecordingError(
            description:
              "\(name):\(number): more than \(RecordingReader.maxEvents) events; that is the most a recording may hold"
          )
        }
        recording.events.append(event)
      }
    }
  }

  struct Why: Error { let text: String }

  /// Each line's event, or why it is not one: a control character (events pass through the board
  /// onto a terminal: nothing may hide a control sequence in a name), or not the trace format.
  /// Lines are shared among the cores, each with its own decoder.
  static func decode(_ lines: [Data]) -> [Result<Event, Why>] {
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, lines.count / 256))
    let results = UnsafeMutableBufferPointer<Result<Event, Why>>.allocate(capacity: lines.count)
    defer { results.deallocate() }
    // Each worker writes its own range of slots, and the results are read after all are done.
    nonisolated(unsafe) let start = results.baseAddress!
    let decodeRange: @Sendable (Range<Int>) -> Void = { range in
      let decoder = JSONDecoder()
      for i in range {
        let data = lines[i]
        let outcome: Result<Event, Why>
        if let why = RecordingReader.controlCharacter(in: data[...]) {
          outcome = .failure(Why(text: why))
        } else {
          do {
            outcome = .success(try decoder.decode(Event.self, from: data))
          } catch {
            outcome = .failure(
              Why(text: "not an event of the trace format: \(RecordingReader.reason(error))"))
          }
        }
        (start + i).initialize(to: outcome)
      }
    }
    if workers == 1 {
      decodeRange(0..<lines.count)
    } else {
      let share = (lines.count + workers - 1) / workers
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        decodeRange((w * share)..<min(lines.count, (w + 1) * share))
      }
    }
    let out = Array(results)
    results.baseAddress!.deinitialize(count: lines.count)
    return out
  }

  private func problem(_ why: String) -> RecordingError {
    RecordingError(description: "\(name):\(lineNumber): \(why)")
  }

  /// The header's words reach the board, the trace and the handouts: they follow the scenario
  /// loader's rules for the same words (`TextPolicy`).
  private mutating func readHeader(_ header: [String: Any]) throws(RecordingError) {
    do {
      try RecordingReader.checkVersion(header["version"], name: name)
    } catch let error as RecordingError {
      throw error
    } catch {
      throw problem("\(error)")
    }
    func text(_ key: String, _ check: (String) -> TextPolicy.Problem?, _ what: String)
      throws(RecordingError) -> String?
    {
      guard let value = header[key] else { return nil }
      guard let text = value as? String else { throw problem("the header's \(key) is not text") }
      if let why = check(text) { throw problem("the header's " + why.description(what: what)) }
      return text
    }
    recording.scenario = try text("scenario", TextPolicy.nameProblem, "scenario name")
    recording.title = try text("title", TextPolicy.lineProblem, "title")
    recording.notes = try text("notes", TextPolicy.notesProblem, "notes")
    recording.source = try text("source", TextPolicy.notesProblem, "source")
  }
}
