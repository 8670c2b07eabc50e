import OpsEngine
import OpsEvents

/// What happened to the board's present, for a recorder: one more event shown, or the present started
/// again (a restart, or time travel's "resume from here", which then shows the kept events again).
public enum PresentChange: Sendable {
  case event(Event)
  case reset
}
