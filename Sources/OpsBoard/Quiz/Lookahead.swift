import OpsEngine
import OpsEvents

/// The events the present run will publish next if nobody presses a key. A fresh copy of the source is
/// built from the same factory, the key commands sent so far are scheduled at their times (as time
/// travel's "resume from here" does), and it is stepped past the present. The board's own source is
/// never touched, so looking ahead cannot disturb what the learner sees.
enum Lookahead {
  /// The next events after the `present` ones, at most `limit` of them; nil when the copy does not
  /// reproduce the present event for event (then nothing can be predicted honestly).
  static func future(
    of makeSource: () -> any EventSource, commands: [RecordedCommand], present: [LogEntry],
    limit: Int = 400
  ) -> [Event]? {
    let copy = makeSource()
    var events: [Event] = []
    copy.subscribe { events.append($0) }
    for c in commands { copy.schedule(c.command, at: c.time) }
    while events.count < present.count + limit, copy.step() {}
    guard events.count >= present.count else { return nil }
    for (entry, event) in zip(present, events) where entry.event != event { return nil }
    return Array(events[present.count...])
  }
}
