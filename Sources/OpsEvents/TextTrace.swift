/// The `text` trace format: one aligned line per event, for reading aloud or handing out.
///
///     time    seq  subject     event
///     2.000    14  resize      pending → ready
public struct TextTrace: Sendable {
  public let subjectWidth: Int

  /// `names`: every operation and queue name that may appear, so columns line up from the first
  /// line; `groups`: the group operations, whose inner queues (`g.children`) appear as subjects too.
  public init(names: [String], groups: [String] = []) {
    let all = names + groups.map(GroupQueueName.inner(of:))
    subjectWidth = min(max(all.map(\.count).max() ?? 0, 7), 28)
  }

  public var header: String {
    pad("time", 9, right: true) + "  " + pad("seq", 6, right: true) + "  "
      + pad("subject", subjectWidth) + "  event"
  }

  public func line(_ e: Event) -> String {
    pad(fixed3(e.time), 9, right: true) + "  " + pad(String(e.seq), 6, right: true) + "  "
      + pad(e.kind.subject, subjectWidth) + "  " + e.kind.summary
  }

  /// `line(e)`'s UTF-8 bytes, appended to `out`: a trace of hundreds of thousands of events builds
  /// no strings for its columns (padding and joining them was most of the text trace's own time).
  public func appendLine(_ e: Event, to out: inout [UInt8]) {
    let start = out.count
    let units = Int64((e.time * 1000).rounded())
    if units < 0 { out.append(UInt8(ascii: "-")) }
    let u = abs(units)
    DecimalBytes.append(UInt64(u / 1000), to: &out)
    out.append(UInt8(ascii: "."))
    let frac = UInt64(u % 1000)
    if frac < 100 { out.append(UInt8(ascii: "0")) }
    if frac < 10 { out.append(UInt8(ascii: "0")) }
    DecimalBytes.append(frac, to: &out)
    Self.padLeft(from: start, to: 9, in: &out)
    Self.appendSpaces(2, to: &out)
    let seqStart = out.count
    DecimalBytes.append(e.seq, to: &out)
    Self.padLeft(from: seqStart, to: 6, in: &out)
    Self.appendSpaces(2, to: &out)
    let subject = e.kind.subject
    out.append(contentsOf: subject.utf8)
    // Columns count characters: bytes, unless the name is not ASCII.
    let isASCII = subject.utf8.allSatisfy { $0 < 0x80 }
    let width = isASCII ? subject.utf8.count : subject.count
    if width < subjectWidth { Self.appendSpaces(subjectWidth - width, to: &out) }
    Self.appendSpaces(2, to: &out)
    e.kind.appendSummary(to: &out)
  }

  /// Spaces one by one: an array literal of them was an object made at every line.
  private static func appendSpaces(_ count: Int, to out: inout [UInt8]) {
    for _ in 0..<count { out.append(0x20) }
  }

  /// Right-aligns the ASCII text written since `start` in a column of `width`.
  private static func padLeft(from start: Int, to width: Int, in out: inout [UInt8]) {
    let written = out.count - start
    guard written < width else { return }
    out.insert(contentsOf: repeatElement(0x20, count: width - written), at: start)
  }

  private func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    guard s.count < width else { return s }
    let fill = String(repeating: " ", count: width - s.count)
    return right ? fill + s : s + fill
  }
}

/// Seconds with exactly three decimals ("12.500").
public func fixed3(_ seconds: Double) -> String { secondsText(seconds, decimals: 3) }
