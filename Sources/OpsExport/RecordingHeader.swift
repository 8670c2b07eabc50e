import Foundation
import OpsEngine
import OpsEvents

/// The first line of a recording `opsview play --record` writes: the format's name, the event format
/// version, opsview's version, the scenario's id and its source text, so a replay knows what it shows
/// and a reader can refuse a version it cannot read.
public struct RecordingHeader: Sendable {
  public static let format = "opsview-recording"
  public var opsview: String
  public var scenario: String
  public var title: String
  public var source: String?

  public init(opsview: String, scenario: String, title: String, source: String?) {
    self.opsview = opsview
    self.scenario = scenario
    self.title = title
    self.source = source
  }

  /// One JSON line, keys sorted so the same run gives the same bytes.
  public var jsonLine: String {
    var object: [String: Any] = [
      "format": Self.format, "version": EventFormat.version, "opsview": opsview,
      "scenario": scenario, "title": title,
    ]
    if let source { object["source"] = source }
    let data = try! JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }
}
