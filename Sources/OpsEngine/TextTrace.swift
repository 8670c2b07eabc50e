/// The `text` trace format: one aligned line per event, for reading aloud or handing out.
///
///     time    seq  subject     event
///     2.000    14  resize      pending → ready
public struct TextTrace: Sendable {
  public let subjectWidth: Int

  /// `names`: every operation and queue name that may appear, so columns line up from the first
  /// line; `groups`: the group operations, whose inner queues (`g.children`) appear as subjects too.
  public init(names: [String], groups: [String] = []) {
    let all = names + groups.map(EngineCore.innerQueueName(of:))
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

  private func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    guard s.count < width else { return s }
    let fill = String(repeating: " ", count: width - s.count)
    return right ? fill + s : s + fill
  }
}

/// Seconds with exactly three decimals ("12.500").
public func fixed3(_ seconds: Double) -> String { secondsText(seconds, decimals: 3) }
