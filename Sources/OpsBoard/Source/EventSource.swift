import OpsEngine
import OpsEvents

/// What the board runs over: something it subscribes to and sends commands to. The virtual scenario
/// is one source (it can also step and advance its clock, and is rebuilt for time travel); a
/// recording is another. The board's time travel works over whatever it has received, so a source
/// only has to deliver events in order.
public protocol EventSource: AnyObject {
  /// Delivers every event published so far, then each new one, in order, on the caller's thread
  /// (during `advance`, `step` or `perform`).
  func subscribe(_ handler: @escaping (Event) -> Void)
  /// What the header says the board runs over ("recording"); nil for the virtual scenario.
  var label: String? { get }
  /// The source's clock, in seconds.
  var now: Double { get }
  /// Nothing more will happen unless a command is sent.
  var isIdle: Bool { get }
  /// When the next event is due, if the source knows (nil: it does not, or nothing more will
  /// happen); lets the board play a frame one `step` at a time and stop when its budget is spent.
  var nextEventTime: Double? { get }
  /// Moves the clock on by `seconds`; events come due on the way.
  func advance(by seconds: Double)
  /// Makes the next event happen; false when nothing more will.
  func step() -> Bool
  /// Why commands are refused (shown in the status line), or nil when the source accepts them.
  var commandRefusal: String? { get }
  /// Sends a command from a key now.
  func perform(_ command: Command) -> CommandOutcome
  /// Sends a key command at `time` (rebuilding: the same command at the time it was first sent).
  func schedule(_ command: Command, at time: Double)
  /// The source is a running program: pausing the board pauses only the view.
  var isLive: Bool { get }
  /// Events of the story never reached the board (a viewer that attached late, or whose events
  /// were dropped): what it has not seen it must not call "not added yet".
  var missedEvents: Bool { get }
  /// Whether a new story began since the last call (a live program restarted): the board then
  /// starts again over the same source, which delivers the new story to its new subscriber.
  func takeNewStory() -> Bool
  /// A confirmed `C`: cancels the unfinished operations the confirmation named. A live program
  /// cancels only those still unfinished when it receives the command (never the next batch).
  func cancel(named operations: [String], in queue: String) -> CommandOutcome
}

extension EventSource {
  public var nextEventTime: Double? { nil }
  public var isLive: Bool { false }
  public var missedEvents: Bool { false }
  public func takeNewStory() -> Bool { false }
  /// The engine applies the command at once, on the state the board shows: the queue's
  /// unfinished operations are the ones named (the board checked before sending).
  public func cancel(named operations: [String], in queue: String) -> CommandOutcome {
    perform(.cancelAll(queue: queue))
  }
}
