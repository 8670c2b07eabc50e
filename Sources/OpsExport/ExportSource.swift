import OpsEngine
import OpsEvents

/// What every export reads: the events of one run and the engine's fold of them (`Projection`), with
/// the words a handout needs. Built from a virtual runtime that has run, or from recorded events.
public struct ExportSource: Sendable {
  /// The scenario's id, or the recording's file name.
  public var id: String
  public var title: String
  /// The scenario's notes (Markdown written by its author), empty for a bare recording.
  public var lesson: String
  /// The events in order: all of them, or (for an export of a long run, see `eventCount`) the first
  /// ones, at least as many as the handout's trace table shows.
  public var events: [Event]
  /// How many events the run had in all.
  public var eventCount: Int
  /// The projection after the last event: what every picture draws.
  public var projection: Projection
  /// The clock when the export was taken: an unfinished state lasts until then.
  public var end: Double
  /// The moments and quiz of a scenario, for the HTML handout (nil: none, or a bare recording).
  public var teaching: HTMLTeaching? = nil

  public init(
    id: String, title: String, lesson: String, events: [Event], eventCount: Int? = nil,
    projection: Projection, end: Double
  ) {
    self.id = id
    self.title = title
    self.lesson = lesson
    self.events = events
    self.eventCount = max(eventCount ?? events.count, events.count)
    self.projection = projection
    self.end = max(end, projection.now)
  }

  /// A runtime that has run (it must record its events): its projection is already folded.
  public init(id: String, title: String, lesson: String, runtime: VirtualRuntime) {
    self.init(
      id: id, title: title, lesson: lesson, events: runtime.events, projection: runtime.projection,
      end: runtime.now)
  }

  /// Recorded events, up to `until` seconds if given, folded here with the engine's fold.
  public init(id: String, title: String, lesson: String, recorded: [Event], until: Double? = nil) {
    let kept = until.map { limit in recorded.filter { $0.time <= limit } } ?? recorded
    var projection = Projection()
    for event in kept { projection.apply(event) }
    if let until { projection.advanceClock(to: until) }
    self.init(
      id: id, title: title, lesson: lesson, events: kept, projection: projection,
      end: projection.now)
  }
}
